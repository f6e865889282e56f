#include "common/util/audit_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <vector>

#include <glog/logging.h>
#include <nlohmann/json.hpp>

#include "common/util/operation_log_json.h"

namespace ics {

namespace {

namespace fs = std::filesystem;

std::string FileStamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[24];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", &tm);
  return buf;
}

// Whether `name` is one of this daemon's audit files:
// <daemon>-audit-<8 digits>-<6 digits>-<digits>-<digits>.jsonl
bool IsAuditFile(const std::string& name, const std::string& daemon) {
  const std::string prefix = daemon + "-audit-";
  const std::string suffix = ".jsonl";
  if (name.size() <= prefix.size() + suffix.size()) return false;
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  const std::string mid = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  // digit runs separated by '-': 8, 6, >=1, >=1
  std::vector<size_t> runs;
  size_t run = 0;
  for (char c : mid) {
    if (c == '-') {
      runs.push_back(run);
      run = 0;
    } else if (c >= '0' && c <= '9') {
      ++run;
    } else {
      return false;
    }
  }
  runs.push_back(run);
  return runs.size() == 4 && runs[0] == 8 && runs[1] == 6 && runs[2] > 0 && runs[3] > 0;
}

}  // namespace

std::string AuditLog::Line(const OperationRecord& r, const std::string& daemon) {
  nlohmann::ordered_json j;
  j["time"] = FormatOperationTime(r.start_time, /*rfc3339=*/true);
  j["daemon"] = daemon;
  j["id"] = r.id;
  j["peer"] = r.origin.peer;
  j["identity"] = r.origin.identity;
  j["tls"] = r.origin.tls;
  j["operation"] = r.kind;
  j["target"] = r.target;
  j["detail"] = r.detail;
  j["outcome"] = r.status;
  j["message"] = r.message;
  j["catalog_version"] = r.catalog_version;
  j["duration_ms"] = static_cast<double>(r.duration_us) / 1000.0;
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

Result<std::unique_ptr<AuditLog>> AuditLog::Open(AuditLogOptions options) {
  if (options.dir.empty()) return Status::InvalidArgument("audit log: no directory given");
  if (options.max_file_bytes < 1) options.max_file_bytes = 1;
  if (options.max_files < 0) options.max_files = 0;
  std::error_code ec;
  fs::create_directories(options.dir, ec);
  if (ec) {
    return Status::IoError("audit log: cannot create directory " + options.dir + ": " +
                           ec.message());
  }
  std::unique_ptr<AuditLog> log(new AuditLog(std::move(options)));
  MutexLock l(&log->mu_);
  ICS_RETURN_IF_ERROR(log->RotateLocked());
  return log;
}

AuditLog::~AuditLog() {
  MutexLock l(&mu_);
  CloseLocked();
}

std::string AuditLog::current_file() const {
  MutexLock l(&mu_);
  return path_;
}

void AuditLog::CloseLocked() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  path_.clear();
  bytes_ = 0;
}

Status AuditLog::RotateLocked() {
  CloseLocked();
  const std::string name = opts_.daemon + "-audit-" + FileStamp() + "-" +
                           std::to_string(++seq_) + "-" + std::to_string(::getpid()) + ".jsonl";
  const std::string path = opts_.dir + "/" + name;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
                        0600);
  if (fd < 0) {
    return Status::IoError("audit log: cannot create " + path + ": " + std::strerror(errno));
  }
  fd_ = fd;
  path_ = path;
  PruneLocked();
  return Status::OK();
}

void AuditLog::PruneLocked() {
  if (opts_.max_files == 0) return;
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(opts_.dir, ec), end; !ec && it != end; it.increment(ec)) {
    // Regular files only; a symlink with an audit file's name is left alone.
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    const std::string n = it->path().filename().string();
    if (IsAuditFile(n, opts_.daemon)) names.push_back(n);
  }
  if (static_cast<int>(names.size()) <= opts_.max_files) return;
  // Oldest first by creation stamp, then by sequence number.
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    const size_t pa = a.find("-audit-") + 7 + 16;  // past "YYYYMMDD-HHMMSS-"
    const size_t pb = b.find("-audit-") + 7 + 16;
    const std::string sa = a.substr(0, pa), sb = b.substr(0, pb);
    if (sa != sb) return sa < sb;
    return std::stoll(a.substr(pa)) < std::stoll(b.substr(pb));
  });
  const std::string current = fs::path(path_).filename().string();
  size_t excess = names.size() - static_cast<size_t>(opts_.max_files);
  for (const std::string& n : names) {
    if (excess == 0) break;
    if (n == current) continue;
    fs::remove(fs::path(opts_.dir) / n, ec);
    if (ec) LOG(WARNING) << "audit log: cannot remove old file " << n << ": " << ec.message();
    --excess;
  }
}

void AuditLog::CountError(const std::string& what) {
  const int64_t n = errors_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (n == 1 || n % 1000 == 0) {
    LOG(ERROR) << what << " (" << n << " write error(s) so far)";
  }
}

void AuditLog::Record(const OperationRecord& record) {
  std::string line;
  try {
    line = Line(record, opts_.daemon);
  } catch (const std::exception& e) {
    MutexLock l(&mu_);
    CountError(std::string("audit log: cannot encode a record: ") + e.what());
    return;
  }
  line.push_back('\n');
  MutexLock l(&mu_);
  if (fd_ < 0 || (bytes_ > 0 && bytes_ + static_cast<int64_t>(line.size()) > opts_.max_file_bytes)) {
    Status s = RotateLocked();
    if (!s.ok()) {
      CountError(s.message());
      return;
    }
  }
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      CountError("audit log: cannot write " + path_ + ": " + std::strerror(errno));
      CloseLocked();
      return;
    }
    done += static_cast<size_t>(n);
  }
  bytes_ += static_cast<int64_t>(line.size());
  lines_.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace ics

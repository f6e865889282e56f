#include "tests/external/external_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>

namespace ics::external {

// ---------------------------------------------------------------------------
// Helpers

bool WaitFor(const std::function<bool()>& condition, Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    if (condition()) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(Millis(20));
  }
}

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string TailOfFile(const std::string& path, size_t lines) {
  std::ifstream in(path);
  if (!in) return "    (no log at " + path + ")\n";
  std::vector<std::string> all;
  std::string line;
  while (std::getline(in, line)) all.push_back(line);
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) {
    out += "    " + all[i] + "\n";
  }
  return out;
}

namespace {

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

// Closes every descriptor >= 3 in a forked child (async-signal-safe).
void CloseExtraFds() {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0) return;
#endif
  for (int fd = 3; fd < 4096; ++fd) close(fd);
}

// Forks and execs argv; the child's stdout+stderr go to `out_fd` (or the
// log path when out_fd < 0). Returns the pid or -1.
pid_t Spawn(const std::vector<std::string>& args, const std::string& work_dir,
            const std::string& log_path, int out_fd) {
  std::vector<char*> argv;
  std::vector<std::string> copy = args;
  // A relative program path ("build/bin/statestored") names a file from
  // here, not from work_dir, where the child runs it.
  if (copy[0].find('/') != std::string::npos && copy[0][0] != '/') {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(copy[0], ec);
    if (!ec) copy[0] = abs.string();
  }
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string exec_failed = "[external cluster] exec of " + args[0] + " failed: ";
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) return pid;
  // Child: only async-signal-safe calls until exec.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(126);
  setpgid(0, 0);
  if (!work_dir.empty() && chdir(work_dir.c_str()) != 0) _exit(125);
  int fd = out_fd >= 0 ? out_fd : open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
  }
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, 0);
  CloseExtraFds();
  signal(SIGPIPE, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execv(argv[0], argv.data());
  // Say why in the log (write(2) is async-signal-safe; the text was built
  // before the fork).
  const int err = errno;
  (void)!write(2, exec_failed.data(), exec_failed.size());
  const char* reason = err == ENOENT    ? "no such file\n"
                       : err == EACCES  ? "permission denied\n"
                       : err == ETXTBSY ? "text file busy (being rebuilt?)\n"
                                        : "see errno\n";
  (void)!write(2, reason, strlen(reason));
  _exit(127);
}

constexpr int kReapedElsewhere = -2;

std::string DescribeWaitStatus(int status) {
  if (status == kReapedElsewhere) return "exited (status unknown)";
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "wait status " + std::to_string(status);
}

void WaitPid(pid_t pid, int* status) {
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

std::string IpTool() {
  for (const char* p : {"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return "";
}

CommandResult RunCommand(const std::vector<std::string>& argv) {
  CommandResult r;
  if (argv.empty()) return r;
  char tmpl[] = "/tmp/ics-external-cmdXXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) {
    r.output = "mkstemp failed";
    return r;
  }
  unlink(tmpl);
  const pid_t pid = Spawn(argv, "", "", fd);
  if (pid < 0) {
    close(fd);
    r.output = "fork failed";
    return r;
  }
  int status = 0;
  WaitPid(pid, &status);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  lseek(fd, 0, SEEK_SET);
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) > 0) r.output.append(buf, static_cast<size_t>(n));
  close(fd);
  return r;
}

// ---------------------------------------------------------------------------
// ExternalProcess

ExternalProcess::ExternalProcess(std::string name, std::string log_path, std::string work_dir)
    : name_(std::move(name)), log_path_(std::move(log_path)), work_dir_(std::move(work_dir)) {}

ExternalProcess::~ExternalProcess() { Kill(); }

Status ExternalProcess::Start(const std::vector<std::string>& argv) {
  if (IsRunning()) return Status::Internal(name_ + " is already running");
  if (argv.empty()) return Status::InvalidArgument("empty command line");
  {
    const std::time_t now = std::time(nullptr);
    char when[32];
    std::strftime(when, sizeof(when), "%H:%M:%S", std::localtime(&now));
    std::ofstream log(log_path_, std::ios::app);
    log << "==== [external cluster] " << when << " starting " << name_ << ": " << Join(argv, " ")
        << "\n";
  }
  const pid_t pid = Spawn(argv, work_dir_, log_path_, -1);
  if (pid < 0) return Status::IoError("fork failed for " + name_ + ": " + strerror(errno));
  pid_ = pid;
  paused_ = false;
  return Status::OK();
}

bool ExternalProcess::IsRunning() {
  if (pid_ <= 0) return false;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_ || (r < 0 && errno == ECHILD)) {
    last_wait_status_ = r == pid_ ? status : kReapedElsewhere;
    pid_ = -1;
    paused_ = false;
    return false;
  }
  return true;
}

void ExternalProcess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  int status = 0;
  WaitPid(pid_, &status);
  last_wait_status_ = status;
  pid_ = -1;
  paused_ = false;
}

Status ExternalProcess::Stop(Millis timeout) {
  if (!IsRunning()) return Status::OK();
  kill(pid_, SIGTERM);
  if (paused_) Resume();
  if (!WaitFor([&] { return !IsRunning(); }, timeout)) {
    Kill();
    return Status::TimedOut(name_ + " did not exit within " + std::to_string(timeout.count()) +
                            " ms of SIGTERM; killed it");
  }
  if (!(WIFEXITED(last_wait_status_) && WEXITSTATUS(last_wait_status_) == 0)) {
    return Status::General(name_ + " stopped with " + DescribeWaitStatus(last_wait_status_));
  }
  return Status::OK();
}

Status ExternalProcess::Pause() {
  if (!IsRunning()) return Status::Internal(name_ + " is not running");
  kill(pid_, SIGSTOP);
  paused_ = true;
  const std::string stat_path = "/proc/" + std::to_string(pid_) + "/stat";
  const bool stopped = WaitFor(
      [&] {
        std::ifstream in(stat_path);
        std::string stat;
        std::getline(in, stat);
        const size_t paren = stat.rfind(')');
        return paren != std::string::npos && paren + 2 < stat.size() &&
               (stat[paren + 2] == 'T' || stat[paren + 2] == 't');
      },
      Millis(5000));
  if (!stopped) return Status::TimedOut(name_ + " did not stop after SIGSTOP");
  return Status::OK();
}

void ExternalProcess::Resume() {
  if (pid_ > 0) kill(pid_, SIGCONT);
  paused_ = false;
}

std::string ExternalProcess::ExitDescription() {
  if (IsRunning()) return "running";
  if (last_wait_status_ == -1) return "not started";
  return DescribeWaitStatus(last_wait_status_);
}

}  // namespace ics::external

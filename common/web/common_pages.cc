// The pages every daemon serves: /, /varz, /metrics, /healthz.
#include <unistd.h>

#include <ctime>

#include <gflags/gflags.h>

#include "common/web/web_server.h"

namespace ics::web {

namespace {

using Json = nlohmann::ordered_json;

std::string FormatUtc(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string FormatDuration(double seconds) {
  auto s = static_cast<int64_t>(seconds);
  const int64_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;
  s %= 60;
  std::string out;
  if (d > 0) out += std::to_string(d) + "d ";
  if (d > 0 || h > 0) out += std::to_string(h) + "h ";
  if (d > 0 || h > 0 || m > 0) out += std::to_string(m) + "m ";
  return out + std::to_string(s) + "s";
}

std::string HostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "";
  return buf;
}

std::string RenderHome(const Json& doc) {
  Json summary = Json::object();
  for (const auto& [k, v] : doc.items()) {
    if (k != "pages") summary[k] = v;
  }
  std::string out = RenderJsonHtml(summary);
  out += "<h2>pages</h2>\n<ul>\n";
  for (const auto& p : doc.at("pages")) {
    const std::string path = p.at("path").get<std::string>();
    out += "<li><a href=\"" + HtmlEscape(path) + "\">" + HtmlEscape(p.at("title").get<std::string>()) +
           "</a> (<a href=\"" + HtmlEscape(path + "?json") + "\">json</a>)</li>\n";
  }
  return out + "</ul>\n";
}

}  // namespace

void WebServer::RegisterCommonPages() {
  PageOptions home;
  home.renderer = RenderHome;
  RegisterPage(
      "/", "Home",
      [this](const WebRequest&, Json* doc) {
        const double uptime =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_steady_).count();
        (*doc)["daemon"] = options_.daemon_name;
        (*doc)["version"] = BuildVersion();
        (*doc)["hostname"] = HostName();
        (*doc)["pid"] = static_cast<int64_t>(getpid());
        (*doc)["start_time"] = FormatUtc(start_time_);
        (*doc)["uptime_seconds"] = uptime;
        (*doc)["uptime"] = FormatDuration(uptime);
        Json pages = Json::array();
        MutexLock l(&mu_);
        for (const auto& [path, page] : pages_) {
          if (page->options.in_menu) pages.push_back({{"path", path}, {"title", page->title}});
        }
        (*doc)["pages"] = std::move(pages);
        return Status::OK();
      },
      std::move(home));

  RegisterPage("/varz", "Flags", [](const WebRequest&, Json* doc) {
    std::vector<gflags::CommandLineFlagInfo> flags;
    gflags::GetAllFlags(&flags);  // sorted by name
    Json out = Json::array();
    for (const auto& f : flags) {
      out.push_back({{"name", f.name},
                     {"value", f.current_value},
                     {"default", f.default_value},
                     {"is_default", f.is_default},
                     {"type", f.type},
                     {"description", f.description}});
    }
    (*doc)["flags"] = std::move(out);
    return Status::OK();
  });

  PageOptions metrics_opts;
  if (metrics_ != nullptr) {
    metrics_opts.text = [this](const WebRequest&) {
      WebResponse r;
      r.content_type = metrics::kPrometheusContentType;
      r.body = metrics_->ToPrometheusText();
      return r;
    };
  }
  RegisterPage(
      "/metrics", "Metrics",
      [this](const WebRequest&, Json* doc) {
        if (metrics_ == nullptr) {
          (*doc)["metrics"] = Json::array();
        } else {
          *doc = metrics_->ToJson();
        }
        return Status::OK();
      },
      std::move(metrics_opts));

  PageOptions health_opts;
  health_opts.text = [this](const WebRequest&) {
    std::function<Status()> check;
    {
      MutexLock l(&mu_);
      check = health_check_;
    }
    const Status s = check ? check() : Status::OK();
    WebResponse r;
    r.content_type = "text/plain; charset=utf-8";
    r.status = s.ok() ? 200 : 503;
    r.body = s.ok() ? "OK\n" : "UNHEALTHY: " + s.message() + "\n";
    return r;
  };
  RegisterPage(
      "/healthz", "Health",
      [this](const WebRequest&, Json* doc) {
        std::function<Status()> check;
        {
          MutexLock l(&mu_);
          check = health_check_;
        }
        const Status s = check ? check() : Status::OK();
        if (!s.ok()) return Status::Shutdown("unhealthy: " + s.message());
        (*doc)["status"] = "OK";
        return Status::OK();
      },
      std::move(health_opts));
}

}  // namespace ics::web

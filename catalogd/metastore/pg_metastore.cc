#include "catalogd/metastore/pg_metastore.h"

#include <libpq-fe.h>

#include <charconv>
#include <chrono>
#include <map>
#include <utility>
#include <vector>

#include "catalogd/metastore/connection_pool.h"
#include "catalogd/metastore/pg_schema.h"
#include "catalogd/metastore/sql_metastore.h"

namespace ics::catalog {
namespace {

constexpr size_t kMaxUriBytes = 4096;

struct IntParam {
  const char* name;
  int pg::PgOptions::*field;
  int min;
  int max;
};
constexpr IntParam kOwnParams[] = {
    {"pool_size", &pg::PgOptions::pool_size, 1, 64},
    {"statement_timeout_ms", &pg::PgOptions::statement_timeout_ms, 100, 3600000},
    {"acquire_timeout_ms", &pg::PgOptions::acquire_timeout_ms, 1, 3600000},
};

bool IsLoopbackOrSocket(const std::string& host) {
  // An empty host or one starting with '/' is a Unix socket directory.
  return host.empty() || host[0] == '/' || host == "localhost" || host == "::1" ||
         host.rfind("127.", 0) == 0;
}

// libpq's reading of `conninfo` (key -> value), or its complaint.
Result<std::map<std::string, std::string>> ParseConninfo(const std::string& conninfo) {
  char* err = nullptr;
  PQconninfoOption* opts = PQconninfoParse(conninfo.c_str(), &err);
  if (opts == nullptr) {
    std::string msg = err != nullptr ? err : "out of memory";
    PQfreemem(err);
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    return Status::InvalidArgument("--metastore: not a valid PostgreSQL URI: " + msg);
  }
  std::map<std::string, std::string> out;
  for (PQconninfoOption* o = opts; o->keyword != nullptr; ++o) {
    if (o->val != nullptr) out[o->keyword] = o->val;
  }
  PQconninfoFree(opts);
  return out;
}

}  // namespace

bool IsPostgresUri(std::string_view uri) {
  return uri.rfind("postgresql://", 0) == 0 || uri.rfind("postgres://", 0) == 0;
}

Result<pg::PgOptions> ParsePostgresUri(const std::string& uri) {
  if (!IsPostgresUri(uri)) {
    return Status::InvalidArgument("--metastore: not a postgresql:// URI");
  }
  if (uri.size() > kMaxUriBytes) {
    return Status::InvalidArgument("--metastore: the URI is longer than " +
                                   std::to_string(kMaxUriBytes) + " bytes");
  }
  pg::PgOptions o;
  // The query starts at the first '?' after the user info and outside a
  // bracketed host ("[::1]"), as libpq reads URIs: user info (which may
  // hold '?') ends at an '@' that comes before any '/', and a bracketed
  // host ends at its ']' whatever it holds.
  size_t after = uri.find("://") + 3;
  const size_t at = uri.find('@', after);
  const size_t slash = uri.find('/', after);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) after = at + 1;
  size_t q = std::string::npos;
  bool in_hosts = true, in_brackets = false;
  for (size_t i = after; i < uri.size() && q == std::string::npos; ++i) {
    const char c = uri[i];
    if (in_brackets) {
      in_brackets = c != ']';
    } else if (c == '?') {
      q = i;
    } else if (c == '/') {
      in_hosts = false;
    } else if (c == '[' && in_hosts) {
      in_brackets = true;
    }
  }
  std::string base = uri.substr(0, q);
  std::vector<std::string> passed;  // libpq's own parameters, as written
  std::map<std::string, bool> given;
  if (q != std::string::npos) {
    std::string_view query(uri);
    query.remove_prefix(q + 1);
    while (!query.empty()) {
      const size_t amp = query.find('&');
      const std::string_view kv = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      if (kv.empty()) continue;
      const size_t eq = kv.find('=');
      const std::string key(kv.substr(0, eq));
      const std::string_view value = eq == std::string_view::npos ? "" : kv.substr(eq + 1);
      given[key] = true;
      const IntParam* own = nullptr;
      for (const IntParam& p : kOwnParams) {
        if (key == p.name) own = &p;
      }
      if (own == nullptr) {
        passed.emplace_back(kv);
        continue;
      }
      int v = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (value.empty() || ec != std::errc() || end != value.data() + value.size() ||
          v < own->min || v > own->max) {
        return Status::InvalidArgument("--metastore: " + key + " must be an integer in [" +
                                       std::to_string(own->min) + ", " + std::to_string(own->max) +
                                       "], got '" + std::string(value) + "'");
      }
      o.*(own->field) = v;
    }
  }
  // Defaults for what was not said.
  const std::vector<std::pair<std::string, std::string>> defaults = {
      {"connect_timeout", "10"},
      {"keepalives", "1"},
      {"keepalives_idle", "10"},
      {"keepalives_interval", "5"},
      {"keepalives_count", "3"},
      {"tcp_user_timeout", std::to_string(o.statement_timeout_ms)},
      {"application_name", "catalogd"},
  };
  for (const auto& [k, v] : defaults) {
    if (!given.count(k)) passed.push_back(k + "=" + v);
  }
  auto join = [&]() {
    std::string out = base;
    for (size_t i = 0; i < passed.size(); ++i) out += (i == 0 ? "?" : "&") + passed[i];
    return out;
  };
  o.conninfo = join();
  ICS_ASSIGN_OR_RETURN(auto parsed, ParseConninfo(o.conninfo));
  const std::string host = parsed.count("host") ? parsed["host"] : "";
  if (!given.count("sslmode") && !IsLoopbackOrSocket(host)) {
    passed.push_back("sslmode=verify-full");
    o.conninfo = join();
  }
  if (!parsed.count("dbname") || parsed["dbname"].empty()) {
    return Status::InvalidArgument(
        "--metastore: the PostgreSQL URI names no database "
        "(postgresql://user@host:port/dbname)");
  }
  o.display = (parsed.count("user") ? parsed["user"] + "@" : "") +
              (host.empty() ? "localhost" : host) + ":" +
              (parsed.count("port") ? parsed["port"] : "5432") + "/" + parsed["dbname"];
  return o;
}

Result<std::unique_ptr<Metastore>> OpenPostgresMetastore(const std::string& uri) {
  ICS_ASSIGN_OR_RETURN(pg::PgOptions options, ParsePostgresUri(uri));
  Result<std::unique_ptr<pg::Connection>> first = pg::Connection::Open(options);
  if (!first.ok()) return first.status();
  Status schema = pg::InitSchema(first->get());
  if (!schema.ok())
    return schema.WithContext("cannot use the PostgreSQL metastore " + options.display);
  auto factory = [options]() -> Result<std::unique_ptr<sqldb::Connection>> {
    ICS_ASSIGN_OR_RETURN(std::unique_ptr<pg::Connection> c, pg::Connection::Open(options));
    return std::unique_ptr<sqldb::Connection>(std::move(c));
  };
  return NewSqlMetastore(std::make_unique<sqldb::ConnectionPool>(
      std::move(first).value(), factory, options.pool_size,
      std::chrono::milliseconds(options.acquire_timeout_ms)));
}

}  // namespace ics::catalog

// The --metastore URI parsers: PostgreSQL (catalogd/metastore/pg_metastore.h;
// libpq reads what is passed through) and the remote Hive Metastore
// (hms_remote_options.h), and the PostgreSQL driver's placeholder rewrite.
//
// Properties: nothing throws or crashes; a parsed PostgreSQL URI has its
// own parameters in range and a display name made of user, host, port and
// database only (never the password);
// rewriting placeholders keeps the text's length and changes only '?'.
#include <libpq-fe.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "catalogd/metastore/hms_remote_options.h"
#include "catalogd/metastore/pg_db.h"
#include "catalogd/metastore/pg_metastore.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const std::string& uri : {text, "postgresql://" + text}) {
    auto o = ics::catalog::ParsePostgresUri(uri);
    if (!o.ok()) continue;
    FUZZ_CHECK(o->pool_size >= 1 && o->pool_size <= 64, "pool_size out of range");
    FUZZ_CHECK(o->statement_timeout_ms >= 100, "statement timeout out of range");
    FUZZ_CHECK(o->acquire_timeout_ms >= 1, "acquire timeout out of range");
    // The display name is made of user, host, port and database only, as
    // libpq reads them: never of the password.
    char* err = nullptr;
    PQconninfoOption* opts = PQconninfoParse(o->conninfo.c_str(), &err);
    FUZZ_CHECK(opts != nullptr, "accepted a conninfo libpq rejects");
    std::map<std::string, std::string> f;
    for (PQconninfoOption* p = opts; p->keyword != nullptr; ++p) {
      if (p->val != nullptr) f[p->keyword] = p->val;
    }
    PQconninfoFree(opts);
    const std::string expected = (f.count("user") ? f["user"] + "@" : "") +
                                 (f["host"].empty() ? "localhost" : f["host"]) + ":" +
                                 (f.count("port") ? f["port"] : "5432") + "/" + f["dbname"];
    FUZZ_CHECK(o->display == expected, "the display name '" + o->display +
                                           "' is not user@host:port/dbname '" + expected + "'");
  }
  (void)ics::catalog::ParseThriftMetastoreUri(text);
  (void)ics::catalog::ParseThriftMetastoreUri("thrift://" + text);
  const std::string rewritten = ics::catalog::pg::PgPlaceholders(text);
  FUZZ_CHECK(rewritten.size() == text.size(), "placeholder rewrite changed the length");
  for (size_t i = 0; i < text.size(); ++i) {
    FUZZ_CHECK(rewritten[i] == text[i] || (text[i] == '?' && rewritten[i] == '$'),
               "placeholder rewrite changed something other than '?'");
  }
  return 0;
}

// The text parsers the security work added: the web server's Host header
// check (common/web/host_check.h, fed by every HTTP request), the
// statestore's topic-writer rules (statestore/topic_writers.h, from a flag)
// and its subscriber token table (statestore/subscriber_tokens.h, a file).
//
// Properties: neither throws or crashes; a malformed bracketed host is never
// allowed; a Host value that passes the check still passes with a port
// appended; every parsed
// writer rule names a topic other than catalog-update and a non-empty
// identity; every parsed token entry has a valid name and secret, and each
// secret identifies exactly its own entry.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/web/host_check.h"
#include "common/rpc/auth_token.h"
#include "statestore/subscriber_tokens.h"
#include "statestore/topic_writers.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool allowed = ics::web::HostAllowed(text, "10.0.0.1", {"catalog.internal"});
  if (!text.empty() && text.front() == '[' && text.find(']') == std::string_view::npos) {
    FUZZ_CHECK(!allowed, "an unterminated '[' host is allowed");
  }
  if (allowed && !text.empty() && text.find(':') == std::string_view::npos &&
      text.find('[') == std::string_view::npos) {
    FUZZ_CHECK(ics::web::HostAllowed(std::string(text) + ":25020", "10.0.0.1",
                                     {"catalog.internal"}),
               "an allowed host is refused with a port");
  }
  auto rules = ics::statestore::ParseTopicWriters(text);
  if (rules.ok()) {
    for (const auto& [topic, identity] : *rules) {
      FUZZ_CHECK(!topic.empty() && !identity.empty() &&
                     topic != ics::statestore::kCatalogTopicName,
                 "bad writer rule accepted");
    }
  }
  auto tokens = ics::statestore::ParseSubscriberTokens(text);
  if (tokens.ok()) {
    for (const auto& e : tokens->entries) {
      FUZZ_CHECK(!e.name.empty() && ics::ValidAuthToken(e.secret), "bad token entry accepted");
      auto id = tokens->Identify("fuzz", "", e.secret);
      FUZZ_CHECK(id.ok() && *id == "token:" + e.name, "a secret does not identify its entry");
    }
  }
  return 0;
}

#include "statestore/subscriber_tokens.h"

#include <openssl/crypto.h>

#include <fstream>
#include <set>

#include "common/rpc/auth_token.h"

namespace ics::statestore {

namespace {

constexpr size_t kMaxName = 64;
constexpr size_t kMaxTableBytes = 1 << 20;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool ValidName(std::string_view s) {
  if (s.empty() || s.size() > kMaxName) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool SameSecret(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

Result<std::string> SubscriberTokens::Identify(const std::string& subscriber_id,
                                               const std::string& peer_identity,
                                               const std::string& token) const {
  if (!peer_identity.empty() || entries.empty()) return peer_identity;
  // Every entry is compared, so the time does not tell which one matched.
  const Entry* match = nullptr;
  for (const Entry& e : entries) {
    if (SameSecret(e.secret, token) && match == nullptr) match = &e;
  }
  if (match == nullptr) {
    return Status::InvalidArgument(
        "subscriber '" + subscriber_id + "' presented " +
        (token.empty() ? std::string("no statestore token")
                       : std::string("an unknown statestore token")) +
        "; this statestore requires one (--statestore_auth_token_file on the subscriber)");
  }
  return "token:" + match->name;
}

Result<SubscriberTokens> ParseSubscriberTokens(std::string_view text) {
  if (text.size() > kMaxTableBytes) {
    return Status::InvalidArgument("the token table is larger than 1 MiB");
  }
  SubscriberTokens out;
  std::set<std::string> names, secrets;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    size_t i = 0;
    while (i < line.size() && IsSpace(line[i])) ++i;
    if (i == line.size() || line[i] == '#') {
      if (end == text.size()) break;
      continue;
    }
    size_t j = i;
    while (j < line.size() && !IsSpace(line[j])) ++j;
    const std::string_view name = line.substr(i, j - i);
    while (j < line.size() && IsSpace(line[j])) ++j;
    size_t k = j;
    while (k < line.size() && !IsSpace(line[k])) ++k;
    const std::string_view secret = line.substr(j, k - j);
    while (k < line.size() && IsSpace(line[k])) ++k;
    const std::string where = "token table line " + std::to_string(line_no) + ": ";
    if (!ValidName(name)) {
      return Status::InvalidArgument(where + "the name must be 1..64 of [A-Za-z0-9_.-]");
    }
    if (!ValidAuthToken(secret) || k != line.size()) {
      return Status::InvalidArgument(
          where + "expected '<name> <secret>' with a secret of 16..1024 printable characters");
    }
    if (!names.insert(std::string(name)).second) {
      return Status::InvalidArgument(where + "the name '" + std::string(name) + "' is repeated");
    }
    if (!secrets.insert(std::string(secret)).second) {
      return Status::InvalidArgument(where + "the secret of '" + std::string(name) +
                                     "' is another entry's secret");
    }
    out.entries.push_back({std::string(name), std::string(secret)});
    if (end == text.size()) break;
  }
  return out;
}

Result<SubscriberTokens> ReadSubscriberTokensFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError("cannot read the token table " + path);
  std::string text(kMaxTableBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  Result<SubscriberTokens> tokens = ParseSubscriberTokens(text);
  if (!tokens.ok()) return tokens.status().WithContext(path);
  return tokens;
}

}  // namespace ics::statestore

// Shared-secret tokens: the credential a statestore subscriber presents
// when mutual TLS does not identify it (statestore/subscriber_tokens.h).
//
// A token is 16..1024 printable ASCII characters without spaces (e.g. the
// output of `openssl rand -hex 32`). A token file holds one token on its
// first line (surrounding whitespace ignored); at most 4 KiB of it is read.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <string_view>

#include "common/util/result.h"

namespace ics {

inline constexpr size_t kMinAuthTokenBytes = 16;
inline constexpr size_t kMaxAuthTokenBytes = 1024;

bool ValidAuthToken(std::string_view token);

// The token of `path`; an error names the file and what is wrong.
[[nodiscard]] Result<std::string> ReadAuthTokenFile(const std::string& path);

}  // namespace ics

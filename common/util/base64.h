// Standard base64 (RFC 4648, with '=' padding), as Hive and Impala use for
// binary values stored in HMS parameters and notification messages.
//
// Thread-safety: stateless.
#pragma once

#include <string>
#include <string_view>

#include "common/util/result.h"

namespace ics {

std::string Base64Encode(std::string_view bytes);
// Strict: CORRUPTION on a length that is not a multiple of 4, characters
// outside the alphabet, misplaced padding, or non-zero padding bits (so
// every value has exactly one encoding).
Result<std::string> Base64Decode(std::string_view text);

}  // namespace ics

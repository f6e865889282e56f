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
// CORRUPTION on characters outside the alphabet or bad padding.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace ics

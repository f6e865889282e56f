#include "common/hive/names.h"

#include <cstdint>

#include "common/util/utf8.h"

namespace ics {

namespace {

// Printable form of a name for messages: control bytes become \xNN so the
// message stays one line; long names are cut.
std::string Printable(std::string_view name) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  const size_t limit = 64;
  for (size_t i = 0; i < name.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  if (name.size() > limit) out += "...";
  return out;
}

Status Invalid(std::string_view kind, std::string_view name, const std::string& why) {
  return Status::InvalidArgument("Invalid " + std::string(kind) + " name '" + Printable(name) +
                                 "': " + why);
}

}  // namespace

Status ValidateName(std::string_view kind, std::string_view name) {
  if (name.empty())
    return Status::InvalidArgument("Invalid " + std::string(kind) + " name: the name is empty");
  if (name.size() > kMaxNameBytes) {
    return Invalid(kind, name,
                   "the name is " + std::to_string(name.size()) + " bytes long (at most " +
                       std::to_string(kMaxNameBytes) + " are allowed)");
  }
  for (size_t i = 0; i < name.size();) {
    uint32_t cp = 0;
    const size_t len = DecodeUtf8(name, i, &cp);
    if (len == 0) {
      return Invalid(kind, name, "not valid UTF-8 at byte " + std::to_string(i));
    }
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      return Invalid(kind, name, "control characters are not allowed in names");
    }
    switch (cp) {
      case '/':
      case '\\':
      case '.':
      case '`':
      case ':':
      case ';':
        return Invalid(kind, name,
                       std::string("'") + static_cast<char>(cp) + "' is not allowed in names");
      default:
        break;
    }
    i += len;
  }
  return Status::OK();
}

Result<std::string> NormalizeName(std::string_view kind, std::string_view name) {
  ICS_RETURN_IF_ERROR(ValidateName(kind, name));
  return AsciiLower(name);
}

}  // namespace ics

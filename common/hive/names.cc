#include "common/hive/names.h"

#include <cstdint>

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

// Decodes one UTF-8 sequence at s[i]; returns its length, or 0 if malformed.
size_t DecodeUtf8(std::string_view s, size_t i, uint32_t* cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t len;
  uint32_t min;
  if ((b0 & 0xe0) == 0xc0) {
    len = 2;
    *cp = b0 & 0x1f;
    min = 0x80;
  } else if ((b0 & 0xf0) == 0xe0) {
    len = 3;
    *cp = b0 & 0x0f;
    min = 0x800;
  } else if ((b0 & 0xf8) == 0xf0) {
    len = 4;
    *cp = b0 & 0x07;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    *cp = (*cp << 6) | (b & 0x3f);
  }
  if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff)) return 0;
  return len;
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

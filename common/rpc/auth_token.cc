#include "common/rpc/auth_token.h"

#include <fstream>

namespace ics {

bool ValidAuthToken(std::string_view token) {
  if (token.size() < kMinAuthTokenBytes || token.size() > kMaxAuthTokenBytes) return false;
  for (char c : token) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return false;
  }
  return true;
}

Result<std::string> ReadAuthTokenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError("cannot read the token file " + path);
  std::string buf(4096, '\0');
  in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
  buf.resize(static_cast<size_t>(in.gcount()));
  const size_t nl = buf.find('\n');
  if (nl != std::string::npos) buf.resize(nl);
  size_t b = 0, e = buf.size();
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (b < e && space(buf[b])) ++b;
  while (e > b && space(buf[e - 1])) --e;
  std::string token = buf.substr(b, e - b);
  if (!ValidAuthToken(token)) {
    return Status::InvalidArgument("the token file " + path +
                                   " must hold one token of 16..1024 printable characters "
                                   "without spaces on its first line");
  }
  return token;
}

}  // namespace ics

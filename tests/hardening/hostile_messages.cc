#include "tests/hardening/hostile_messages.h"

#include <random>

namespace ics::hostile {

const char* BombKindName(BombKind kind) {
  switch (kind) {
    case BombKind::kStructList: return "list<struct>";
    case BombKind::kStructListFits: return "list<struct>(2^27)";
    case BombKind::kI64List: return "list<i64>";
    case BombKind::kStringList: return "list<string>";
    case BombKind::kStringSet: return "set<string>";
    case BombKind::kStringMap: return "map<string,string>";
    case BombKind::kHugeString: return "string(2^31-1)";
    case BombKind::kBigString: return "string(200MiB)";
  }
  return "?";
}

std::vector<BombKind> AllBombKinds() {
  return {BombKind::kStructList, BombKind::kStructListFits, BombKind::kI64List, BombKind::kStringList,
          BombKind::kStringSet,  BombKind::kStringMap, BombKind::kHugeString,
          BombKind::kBigString};
}

RawWriter& RawWriter::Byte(uint8_t v) {
  out_.push_back(static_cast<char>(v));
  return *this;
}
RawWriter& RawWriter::I16(int16_t v) {
  const auto u = static_cast<uint16_t>(v);
  return Byte(static_cast<uint8_t>(u >> 8)).Byte(static_cast<uint8_t>(u));
}
RawWriter& RawWriter::I32(int32_t v) {
  const auto u = static_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8) Byte(static_cast<uint8_t>(u >> shift));
  return *this;
}
RawWriter& RawWriter::I64(int64_t v) {
  const auto u = static_cast<uint64_t>(v);
  for (int shift = 56; shift >= 0; shift -= 8) Byte(static_cast<uint8_t>(u >> shift));
  return *this;
}
RawWriter& RawWriter::String(const std::string& s) {
  I32(static_cast<int32_t>(s.size()));
  out_ += s;
  return *this;
}
RawWriter& RawWriter::CallHeader(const std::string& method, int32_t seqid) {
  I32(static_cast<int32_t>(0x80010001u));  // version 1, CALL
  String(method);
  return I32(seqid);
}
RawWriter& RawWriter::Field(uint8_t type, int16_t id) { return Byte(type).I16(id); }

namespace {

void WriteBombValue(RawWriter& w, BombKind kind) {
  switch (kind) {
    case BombKind::kStructList:
      w.Byte(kTStruct).I32(0x3fffffff);
      break;
    case BombKind::kStructListFits:
      w.Byte(kTStruct).I32(1 << 27);
      break;
    case BombKind::kI64List:
      w.Byte(kTI64).I32(1 << 28);
      break;
    case BombKind::kStringList:
    case BombKind::kStringSet:
      w.Byte(kTString).I32(0x3fffffff);
      break;
    case BombKind::kStringMap:
      w.Byte(kTString).Byte(kTString).I32(0x3fffffff);
      break;
    case BombKind::kHugeString:
      w.I32(0x7fffffff);
      break;
    case BombKind::kBigString:
      w.I32(200 << 20);
      break;
  }
}

uint8_t BombFieldType(BombKind kind) {
  switch (kind) {
    case BombKind::kStructList:
    case BombKind::kStructListFits:
    case BombKind::kI64List:
    case BombKind::kStringList:
      return kTList;
    case BombKind::kStringSet:
      return kTSet;
    case BombKind::kStringMap:
      return kTMap;
    case BombKind::kHugeString:
    case BombKind::kBigString:
      return kTString;
  }
  return kTString;
}

}  // namespace

std::string Bomb(const std::string& method, const std::vector<int16_t>& path, int16_t field,
                 BombKind kind) {
  RawWriter w;
  w.CallHeader(method);
  for (int16_t id : path) w.Field(kTStruct, id);
  w.Field(BombFieldType(kind), field);
  WriteBombValue(w, kind);
  // A few element bytes, then the input ends.
  w.I32(0).I32(0);
  return w.bytes();
}

std::string DeepStruct(const std::string& method, int depth) {
  RawWriter w;
  w.CallHeader(method);
  for (int i = 0; i < depth; ++i) w.Field(kTStruct, 1);
  for (int i = 0; i < depth; ++i) w.Stop();
  w.Stop();
  return w.bytes();
}

std::vector<std::string> BombSweep(const std::string& method, int max_field) {
  std::vector<std::string> out;
  for (BombKind kind : AllBombKinds()) {
    for (int16_t arg = 1; arg <= 3; ++arg) {
      out.push_back(Bomb(method, {}, arg, kind));
      for (int16_t f = 1; f <= max_field; ++f) {
        out.push_back(Bomb(method, {arg}, f, kind));
        if (arg == 1) {
          for (int16_t g = 1; g <= max_field; ++g) out.push_back(Bomb(method, {arg, f}, g, kind));
        }
      }
    }
  }
  return out;
}

std::string TruncatedCall(const std::string& method, size_t keep) {
  RawWriter w;
  w.CallHeader(method).Field(kTStruct, 1).Field(kTString, 1).String("abcdef").Stop().Stop();
  std::string bytes = w.bytes();
  if (keep < bytes.size()) bytes.resize(keep);
  return bytes;
}

std::string Garbage(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(rng() & 0xff);
  return out;
}

}  // namespace ics::hostile

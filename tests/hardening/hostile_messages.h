// Hand-made hostile Thrift messages (TBinaryProtocol, strict header), for
// robustness tests and fuzz seeds: container and string "bombs" whose size
// prefix declares far more than follows, nesting deeper than any limit,
// truncated calls, garbage.
//
// A bomb is a CALL of `method` whose arguments lead, through the struct fields
// of `path` (each field of type STRUCT), to a field that declares a huge
// container or string — and then the bytes end. A receiver that allocates
// what the prefix declares before the bytes arrive dies; a hardened one
// rejects the request and keeps serving.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ics::hostile {

enum class BombKind {
  kStructList,  // list<struct> of 2^30-1 elements (more than any message limit)
  kStructListFits,  // list<struct> of 2^27: fits a 256 MiB message, not a memory budget
  kI64List,     // list<i64> of 2^28 elements
  kStringList,  // list<string> of 2^30-1 elements
  kStringSet,   // set<string> of 2^30-1 elements
  kStringMap,   // map<string,string> of 2^30-1 entries
  kHugeString,  // a string of 2^31-1 bytes
  kBigString,   // a string of 200 MiB (under a 256 MiB message limit)
};
const char* BombKindName(BombKind kind);
std::vector<BombKind> AllBombKinds();

// Writes raw TBinaryProtocol pieces.
class RawWriter {
 public:
  RawWriter& Byte(uint8_t v);
  RawWriter& I16(int16_t v);
  RawWriter& I32(int32_t v);
  RawWriter& I64(int64_t v);
  RawWriter& String(const std::string& s);
  RawWriter& CallHeader(const std::string& method, int32_t seqid = 1);
  RawWriter& Field(uint8_t type, int16_t id);
  RawWriter& Stop() { return Byte(0); }
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

// Thrift type codes on the wire.
inline constexpr uint8_t kTStruct = 12, kTList = 15, kTSet = 14, kTMap = 13, kTString = 11,
                         kTI64 = 10, kTI32 = 8;

// The bomb described in the file comment.
std::string Bomb(const std::string& method, const std::vector<int16_t>& path, int16_t field,
                 BombKind kind);

// A call whose arguments nest `depth` structs (field 1 of each) and end there.
std::string DeepStruct(const std::string& method, int depth);

// The sweep used by the tests for one method: every bomb kind at argument
// fields 1..3 and one and two struct levels below them (fields 1..max_field).
std::vector<std::string> BombSweep(const std::string& method, int max_field);

// A well-formed call of `method` with empty arguments, cut after `keep` bytes.
std::string TruncatedCall(const std::string& method, size_t keep);

// `n` deterministic pseudo-random bytes (seeded).
std::string Garbage(size_t n, uint32_t seed);

}  // namespace ics::hostile

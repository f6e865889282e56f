#include "tests/fuzz/fuzz_rpc.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/rpc/request_barrier.h"

namespace ics::fuzz {

namespace {

// ICS_FUZZ_PRINT_REPLIES=1 (for checking seeds by hand, e.g. with -runs=0):
// prints each input's outcome and the readable strings of the reply, which
// carry the handlers' status messages.
void PrintReply(const RequestResult& r, const std::string& reply) {
  std::fprintf(stderr, "fuzz rpc: outcome %d%s%s, reply %zu bytes:", static_cast<int>(r.outcome),
               r.error.empty() ? "" : " ", r.error.c_str(), reply.size());
  std::string run;
  for (char c : reply + '\0') {
    if (c >= 0x20 && c < 0x7f) {
      run += c;
      continue;
    }
    if (run.size() >= 4) std::fprintf(stderr, " [%s]", run.c_str());
    run.clear();
  }
  std::fprintf(stderr, "\n");
}

}  // namespace

void FeedProcessor(apache::thrift::TProcessor& processor, const uint8_t* data, size_t size) {
  static const bool print = std::getenv("ICS_FUZZ_PRINT_REPLIES") != nullptr;
  std::string reply;
  const RequestResult r = ProcessRequestBytes(
      processor, std::string_view(reinterpret_cast<const char*>(data), size), kFuzzRpcLimits,
      print ? &reply : nullptr);
  if (print) PrintReply(r, reply);
}

}  // namespace ics::fuzz

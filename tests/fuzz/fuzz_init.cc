// Linked into every fuzz target: libFuzzer calls LLVMFuzzerInitialize once
// before the first input. It silences glog below FATAL (the handlers log
// every rejected request at INFO/WARNING, which would dominate the run time
// and bury libFuzzer's own output).
#include <glog/logging.h>

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  FLAGS_logtostderr = true;
  FLAGS_minloglevel = google::GLOG_FATAL;
  return 0;
}

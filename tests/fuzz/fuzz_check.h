// FUZZ_CHECK(cond, what): a property a fuzz target asserts about the code
// under test (e.g. "what decodes, re-encodes"). A violation prints `what`
// and aborts, which libFuzzer reports as a crash with the input saved.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond, what)                                                    \
  do {                                                                            \
    if (!(cond)) {                                                                \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  %s\n", __FILE__,    \
                   __LINE__, #cond, std::string(what).c_str());                   \
      std::abort();                                                               \
    }                                                                             \
  } while (false)

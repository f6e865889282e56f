// Exception barriers: where code that may throw (allocation, the standard
// library, Thrift-generated code, a test seam) meets code that must not —
// a thread's top-level loop, a pool task, a noexcept callback — the call is
// wrapped so that any exception becomes a Status (or a log line) instead of
// std::terminate or a wedged waiter.
//
//   Status s = CatchAll("listing partition 3", [&] { return DoIt(); });
//
// CatchAll(what, fn) runs fn; fn returns Status or void. Any exception is
// returned as INTERNAL "<what>: unexpected exception: <what()>" ("non-standard
// exception" for anything not derived from std::exception). Thread loops
// that must survive even an allocation failure while reporting wrap their
// body in their own try/catch(...) as well.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "common/util/status.h"

namespace ics {

// A description of the exception being handled (what() of a
// std::exception); call only inside a catch block. Never throws: if even
// the text cannot be built, it is empty.
inline std::string DescribeCurrentException() noexcept {
  try {
    try {
      throw;
    } catch (const std::exception& e) {
      return std::string(e.what());
    } catch (...) {
      return "non-standard exception";
    }
  } catch (...) {
    return std::string();
  }
}

// INTERNAL "<what>: unexpected exception: <description>" for the exception
// being handled; call only inside a catch block. May itself throw
// std::bad_alloc, but only when memory is exhausted.
inline Status StatusFromCurrentException(std::string_view what) {
  return Status::Internal(std::string(what) + ": unexpected exception: " +
                          DescribeCurrentException());
}

template <typename Fn>
Status CatchAll(std::string_view what, Fn&& fn) {
  try {
    if constexpr (std::is_void_v<decltype(fn())>) {
      std::forward<Fn>(fn)();
      return Status::OK();
    } else {
      return std::forward<Fn>(fn)();
    }
  } catch (...) {
    return StatusFromCurrentException(what);
  }
}

}  // namespace ics

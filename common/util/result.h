// Result<T>: either a value of T or a non-OK Status.
//
// Use for functions that produce a value and can fail, instead of an
// out-parameter plus a Status. Constructing a Result from an OK Status is a
// programming error (checked with an assert in debug builds; treated as an
// internal error otherwise).
//
// Thread-safety: value type, like Status.
#pragma once

#include <cassert>
#include <optional>
#include <utility>

#include "common/util/status.h"

namespace ics {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Status status) : status_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    assert(!status_.ok());
    if (status_.ok()) status_ = Status::Internal("Result constructed from OK status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // Accessors require ok().
  T& value() & { assert(ok()); return *value_; }
  const T& value() const& { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace ics

#define ICS_CONCAT_INNER(a, b) a##b
#define ICS_CONCAT(a, b) ICS_CONCAT_INNER(a, b)

// Evaluates `rexpr` (a Result<T>); on error returns its Status from the
// enclosing function, otherwise move-assigns the value to `lhs`
// (which may be a declaration such as `auto x`).
#define ICS_ASSIGN_OR_RETURN(lhs, rexpr) \
  ICS_ASSIGN_OR_RETURN_IMPL(ICS_CONCAT(_ics_result_, __LINE__), lhs, rexpr)
#define ICS_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                              \
  if (!tmp.ok()) return tmp.status();              \
  lhs = std::move(tmp).value()

// Internal to the HMS handler's files (hms_handler*.cc): how Status
// categories become each call's declared exceptions, the guard that turns an
// unexpected C++ exception into one, and the wrapper of writes (Changed),
// which the command core carries out and records.
#pragma once

#include <glog/logging.h>
#include <thrift/TApplicationException.h>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "ThriftHiveMetastore.h"
#include "catalogd/hms/hms_core.h"
#include "catalogd/hms/hms_part_internal.h"
#include "catalogd/ops/command_core.h"
#include "common/util/status.h"

namespace ics::catalog::hms::handler_internal {

// The exception a failed call raises.
enum class Ex {
  kMeta,
  kNoSuchObject,
  kAlreadyExists,
  kInvalidObject,
  kInvalidOperation,
  kInvalidInput,
  kUnknownDB,
  kUnknownTable,
  kConfigSecurity,
  kApp,  // no declared exception: a Thrift application error
};

// Which exception each Status category becomes for one call.
struct Errs {
  Ex not_found = Ex::kMeta;
  Ex exists = Ex::kMeta;
  Ex invalid = Ex::kMeta;
  Ex other = Ex::kMeta;
};

template <typename E>
[[noreturn]] void ThrowWith(const std::string& msg) {
  E e;
  e.__set_message(msg);
  throw e;
}

[[noreturn]] inline void Raise(Ex ex, const std::string& msg) {
  switch (ex) {
    case Ex::kNoSuchObject: ThrowWith<hive::NoSuchObjectException>(msg);
    case Ex::kAlreadyExists: ThrowWith<hive::AlreadyExistsException>(msg);
    case Ex::kInvalidObject: ThrowWith<hive::InvalidObjectException>(msg);
    case Ex::kInvalidOperation: ThrowWith<hive::InvalidOperationException>(msg);
    case Ex::kInvalidInput: ThrowWith<hive::InvalidInputException>(msg);
    case Ex::kUnknownDB: ThrowWith<hive::UnknownDBException>(msg);
    case Ex::kUnknownTable:
      ThrowWith<hive::UnknownTableException>(msg);
    case Ex::kConfigSecurity: ThrowWith<hive::ConfigValSecurityException>(msg);
    case Ex::kApp: throw apache::thrift::TApplicationException(msg);
    case Ex::kMeta: break;
  }
  ThrowWith<hive::MetaException>(msg);
}

inline void Check(const Status& s, const Errs& e) {
  if (s.ok()) return;
  switch (s.code()) {
    case ErrorCode::kNotFound: Raise(e.not_found, s.message());
    case ErrorCode::kAlreadyExists: Raise(e.exists, s.message());
    case ErrorCode::kInvalidArgument: Raise(e.invalid, s.message());
    default: Raise(e.other, s.ToString());
  }
}

template <typename T>
T Get(Result<T> r, const Errs& e) {
  Check(r.status(), e);
  return std::move(r).value();
}

// Runs one call; an unexpected C++ exception becomes `fallback` (declared
// exceptions and Thrift errors pass through unchanged).
template <typename Fn>
auto Guard(const char* call, Ex fallback, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const apache::thrift::TException&) {
    throw;
  } catch (const std::exception& e) {
    LOG(WARNING) << "HMS endpoint: " << call << " failed unexpectedly: " << e.what();
    Raise(fallback, std::string("internal error in ") + call + ": " + e.what());
  }
}

inline std::string PartitionsTarget(const std::vector<hive::Partition>& parts) {
  if (parts.empty()) return "(no partitions)";
  std::string t = parts[0].dbName + "." + parts[0].tableName;
  if (parts.size() > 1) t += " (" + std::to_string(parts.size()) + " partitions)";
  return t;
}

inline std::string StatsTarget(const hive::ColumnStatistics& stats) {
  std::string t = stats.statsDesc.dbName + "." + stats.statsDesc.tableName;
  if (stats.statsDesc.__isset.partName) t += "/" + stats.statsDesc.partName;
  return t;
}

// The status a raised HMS exception stands for (for the operation log).
inline Status StatusOfRaised(const std::exception_ptr& raised) {
  try {
    std::rethrow_exception(raised);
  } catch (const hive::NoSuchObjectException& e) {
    return Status::NotFound(e.message);
  } catch (const hive::AlreadyExistsException& e) {
    return Status::AlreadyExists(e.message);
  } catch (const hive::InvalidObjectException& e) {
    return Status::InvalidArgument(e.message);
  } catch (const hive::InvalidOperationException& e) {
    return Status::InvalidArgument(e.message);
  } catch (const hive::InvalidInputException& e) {
    return Status::InvalidArgument(e.message);
  } catch (const hive::MetaException& e) {
    return Status(ErrorCode::kGeneral, e.message);
  } catch (const std::exception& e) {
    return Status(ErrorCode::kInternalError, e.what());
  } catch (...) {
    return Status(ErrorCode::kInternalError, "unknown exception");
  }
}

// Guard() for a write, which the command core (catalogd/ops) carries out:
// the core records it (operation log, audit line) and the catalog holds it
// when the core returns. A write the door refuses before it becomes a
// command is recorded as "HMS <call>" on `target` (ops::DoorCall).
template <typename Fn>
auto Changed(HmsCore* core, const char* call, std::string target, Fn&& fn) -> decltype(fn()) {
  ops::DoorCall door(core->commands(), HmsCaller(),
                     {std::string("HMS ") + call, std::move(target)});
  try {
    return Guard(call, Ex::kMeta, std::forward<Fn>(fn));
  } catch (...) {
    door.Failed(StatusOfRaised(std::current_exception()));
    throw;
  }
}

// Per-call mappings (named after the HMS calls that use them).
inline constexpr Errs kPlain{};                                               // MetaException only
inline constexpr Errs kLookup{Ex::kNoSuchObject, Ex::kMeta, Ex::kMeta};       // get_*, drop_table
inline constexpr Errs kCreate{Ex::kNoSuchObject, Ex::kAlreadyExists, Ex::kInvalidObject};
inline constexpr Errs kAddPart{Ex::kInvalidObject, Ex::kAlreadyExists, Ex::kInvalidObject};
inline constexpr Errs kAlter{Ex::kInvalidOperation, Ex::kInvalidOperation, Ex::kInvalidOperation};
inline constexpr Errs kStats{Ex::kNoSuchObject, Ex::kMeta, Ex::kInvalidInput};
inline constexpr Errs kApp{Ex::kApp, Ex::kApp, Ex::kApp, Ex::kApp};

// The database a request names with its catName field (Hive 3/4 request
// objects): "@<catalog>#<db>" when the catalog is given, so the parts check
// it as they check a prefixed name.
inline std::string WithCatalog(bool cat_isset, const std::string& cat, const std::string& db) {
  return cat_isset && !cat.empty() ? "@" + cat + "#" + db : db;
}

inline HmsPartitions::PartitionQuery Query(int16_t max_parts) {
  HmsPartitions::PartitionQuery q;
  q.max_parts = max_parts;
  return q;
}

}  // namespace ics::catalog::hms::handler_internal

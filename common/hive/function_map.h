// The mapping between Hive Metastore functions (hive::Function, keyed by
// database and name) and the catalog's functions (impala::TFunction, keyed by
// database and signature), used by the HMS endpoint and by the remote-HMS
// metastore backend (both directions must agree, so it lives here once).
//
// Rule: the HMS function name IS the catalog signature.
//
//  * A Java function created through the HMS API (className = a Java class)
//    becomes a TFunction with binary_type JAVA, signature = the lower-cased
//    function name (no parentheses: HMS functions are not overloaded and
//    their argument types live in the class), scalar_fn.symbol = className,
//    hdfs_location = the JAR's URI (at most one JAR resource is accepted),
//    last_modified_time = createTime in milliseconds. Owner fields are not
//    kept (the catalog has no function owner); they come back as empty/USER.
//
//  * Any other catalog function (e.g. a native UDF created by CREATE
//    FUNCTION, signature "f(int,string)") is shown to HMS clients under its
//    signature as the name, with className = kEncodedFunctionPrefix + the
//    base64 of the TCompactProtocol bytes of the whole TFunction. Creating a
//    function whose className carries that prefix stores exactly the encoded
//    TFunction, so a catalog that keeps its functions in a (remote) HMS
//    round-trips them losslessly.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <string_view>

#include "Types_types.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics {

inline constexpr std::string_view kEncodedFunctionPrefix = "ics.tfunction:";

// The TFunction to store for an HMS function. INVALID_ARGUMENT (with a
// reason) for an invalid database or function name, an empty className,
// more than one resource or a non-JAR resource, an undecodable encoded
// function, or an encoded function whose database/signature differ from
// dbName/functionName.
Result<impala::TFunction> FromHmsFunction(const hive::Function& fn);

// The HMS view of a stored function. Never fails for a function with a
// database and a signature; INVALID_ARGUMENT otherwise.
Result<hive::Function> ToHmsFunction(const impala::TFunction& fn);

// The catalog signature for an HMS function name given by a client: names
// without '(' are lower-cased (Java functions), signatures are kept as they are.
std::string SignatureForHmsName(std::string_view name);

}  // namespace ics

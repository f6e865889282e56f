#include "common/hive/function_map.h"

#include "common/codec/thrift_serde.h"
#include "common/hive/names.h"
#include "common/util/base64.h"

namespace ics {

namespace {

bool IsJavaHmsFunction(const impala::TFunction& fn) {
  return fn.__isset.signature && fn.signature.find('(') == std::string::npos &&
         fn.__isset.binary_type && fn.binary_type == impala::TFunctionBinaryType::JAVA;
}

}  // namespace

std::string SignatureForHmsName(std::string_view name) {
  if (name.find('(') != std::string_view::npos) return std::string(name);
  return AsciiLower(name);
}

Result<impala::TFunction> FromHmsFunction(const hive::Function& in) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(in.dbName));
  if (in.className.rfind(kEncodedFunctionPrefix, 0) == 0) {
    Result<std::string> bytes =
        Base64Decode(std::string_view(in.className).substr(kEncodedFunctionPrefix.size()));
    if (!bytes.ok()) {
      return Status::InvalidArgument("function " + in.functionName +
                                     ": className carries an encoded function that is not valid "
                                     "base64: " +
                                     bytes.status().message());
    }
    Result<impala::TFunction> decoded =
        DeserializeThriftAs<impala::TFunction>(*bytes, ThriftProtocol::kCompact, 1 << 20);
    if (!decoded.ok()) {
      return Status::InvalidArgument(
          "function " + in.functionName +
          ": className carries an undecodable encoded function: " + decoded.status().message());
    }
    impala::TFunction fn = std::move(decoded).value();
    if (!fn.name.__isset.db_name || fn.name.db_name != db) {
      return Status::InvalidArgument("function " + in.functionName +
                                     ": the encoded function belongs to database '" +
                                     fn.name.db_name + "', not '" + db + "'");
    }
    if (!fn.__isset.signature || fn.signature != in.functionName) {
      return Status::InvalidArgument("function " + in.functionName +
                                     ": the name must be the encoded function's signature '" +
                                     fn.signature + "'");
    }
    return fn;
  }
  if (in.functionName.find('(') != std::string::npos) {
    return Status::InvalidArgument("function name '" + in.functionName +
                                   "' contains '(' (only encoded catalog functions are named by "
                                   "signature)");
  }
  ICS_ASSIGN_OR_RETURN(std::string name, NormalizeFunctionName(in.functionName));
  if (in.className.empty()) {
    return Status::InvalidArgument("function " + db + "." + name + " has no className");
  }
  if (in.resourceUris.size() > 1) {
    return Status::InvalidArgument("function " + db + "." + name + " has " +
                                   std::to_string(in.resourceUris.size()) +
                                   " resources; at most one JAR is supported");
  }
  impala::TFunction fn;
  fn.name.__set_db_name(db);
  fn.name.function_name = name;
  fn.__set_binary_type(impala::TFunctionBinaryType::JAVA);
  fn.__set_arg_types({});
  fn.__set_has_var_args(false);
  fn.__set_signature(name);
  impala::TScalarFunction scalar;
  scalar.symbol = in.className;
  fn.__set_scalar_fn(scalar);
  if (!in.resourceUris.empty()) {
    const hive::ResourceUri& r = in.resourceUris[0];
    if (r.resourceType != hive::ResourceType::JAR) {
      return Status::InvalidArgument("function " + db + "." + name +
                                     ": only a JAR resource is supported");
    }
    fn.__set_hdfs_location(r.uri);
  }
  fn.__set_is_persistent(true);
  fn.__set_last_modified_time(static_cast<int64_t>(in.createTime) * 1000);
  return fn;
}

Result<hive::Function> ToHmsFunction(const impala::TFunction& fn) {
  if (!fn.name.__isset.db_name || fn.name.db_name.empty() || !fn.__isset.signature ||
      fn.signature.empty()) {
    return Status::InvalidArgument("function " + fn.name.function_name +
                                   " has no database or signature");
  }
  hive::Function out;
  out.dbName = fn.name.db_name;
  out.functionName = fn.signature;
  out.ownerType = hive::PrincipalType::USER;
  out.functionType = hive::FunctionType::JAVA;
  out.createTime =
      fn.__isset.last_modified_time ? static_cast<int32_t>(fn.last_modified_time / 1000) : 0;
  if (fn.__isset.hdfs_location && !fn.hdfs_location.empty()) {
    hive::ResourceUri r;
    r.resourceType = hive::ResourceType::JAR;
    r.uri = fn.hdfs_location;
    out.resourceUris.push_back(r);
  }
  if (IsJavaHmsFunction(fn)) {
    out.className = fn.__isset.scalar_fn ? fn.scalar_fn.symbol : "";
    return out;
  }
  ICS_ASSIGN_OR_RETURN(std::string bytes, SerializeThrift(fn, ThriftProtocol::kCompact));
  out.className = std::string(kEncodedFunctionPrefix) + Base64Encode(bytes);
  return out;
}

}  // namespace ics

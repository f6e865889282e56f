// CREATE / DROP FUNCTION. A function is keyed in its database by its
// signature "name(type1,type2)" ("name(type1,type2...)" with var args),
// built from the argument types with TypeToString.

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/ddl/ddl_operations_internal.h"
#include "common/hive/names.h"
#include "common/types/column_type.h"

namespace ics::catalog::ddl {

namespace {

Result<std::string> FunctionDb(const impala::TFunctionName& name) {
  if (!name.__isset.db_name || name.db_name.empty()) {
    return Status::InvalidArgument("Function " + name.function_name + " has no database");
  }
  return NormalizeDatabaseName(name.db_name);
}

Status CheckType(const impala::TColumnType& type, const std::string& what) {
  Status s = ValidateColumnType(type);
  if (!s.ok()) return Status::InvalidArgument("Invalid " + what + ": " + s.message());
  return Status::OK();
}

}  // namespace

Result<std::string> FunctionSignature(const std::string& name,
                                      const std::vector<impala::TColumnType>& arg_types,
                                      bool var_args) {
  std::string sig = name + "(";
  for (size_t i = 0; i < arg_types.size(); ++i) {
    ICS_RETURN_IF_ERROR(CheckType(
        arg_types[i], "type of argument " + std::to_string(i + 1) + " of function " + name));
    if (i > 0) sig += ",";
    sig += TypeToString(arg_types[i]);
  }
  if (var_args) {
    if (arg_types.empty()) {
      return Status::InvalidArgument("Function " + name +
                                     " has variable arguments but no argument type");
    }
    sig += "...";
  }
  sig += ")";
  return sig;
}

Result<DdlOutcome> CreateFunction(CatalogContext* ctx, const CreateFunctionCommand& c) {
  impala::TFunction fn = c.fn;
  ICS_ASSIGN_OR_RETURN(std::string db, FunctionDb(fn.name));
  ICS_ASSIGN_OR_RETURN(std::string name, NormalizeFunctionName(fn.name.function_name));
  if (fn.__isset.binary_type && fn.binary_type == impala::TFunctionBinaryType::BUILTIN) {
    return Status::InvalidArgument("Cannot create BUILTIN function " + db + "." + name);
  }
  if (fn.__isset.ret_type) ICS_RETURN_IF_ERROR(CheckType(fn.ret_type, "return type of " + name));
  if (fn.__isset.aggregate_fn) {
    ICS_RETURN_IF_ERROR(
        CheckType(fn.aggregate_fn.intermediate_type, "intermediate type of " + name));
  }
  std::string sig = c.signature;
  if (sig.empty()) {
    ICS_ASSIGN_OR_RETURN(
        sig, FunctionSignature(name, fn.arg_types, fn.__isset.has_var_args && fn.has_var_args));
  }
  fn.name.__set_db_name(db);
  fn.name.function_name = name;
  fn.__set_signature(sig);
  if (c.signature.empty()) {
    fn.__set_is_persistent(true);
    if (!fn.__isset.last_modified_time) fn.__set_last_modified_time(NowMs());
  }
  const bool if_not_exists = c.if_not_exists;

  ScopedLocks locks(ctx->catalog, {{db, ""}});
  if (ctx->catalog->GetDatabase(db) == nullptr) return DatabaseNotFound(db);
  if (ctx->catalog->GetFunction(db, sig) != nullptr) {
    if (if_not_exists) return NoOp(ctx, "Function already exists.");
    return Status::AlreadyExists("Function already exists: " + db + "." + sig);
  }
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::CreateFunction(db, sig, fn));
  Status committed = Commit(ctx, txn);
  if (!committed.ok()) {
    if (committed.Is(ErrorCode::kAlreadyExists) && if_not_exists) {
      return NoOp(ctx, "Function already exists.");
    }
    return committed;
  }
  auto state = std::make_shared<FunctionState>();
  state->db = db;
  state->signature = sig;
  state->fn = std::move(fn);
  ChangeSet cs;
  cs.put_functions.push_back(state);
  DdlOutcome out;
  out.version = ctx->catalog->Install(std::move(cs));
  out.functions.push_back(state);
  out.summary = "Function has been created.";
  return out;
}

namespace {

// DROP FUNCTION of the first of `candidates` (signatures) that exists in
// `db`; `shown` names the function in NOT_FOUND.
Result<DdlOutcome> DropFunctionOf(CatalogContext* ctx, const std::string& db,
                                  const std::vector<std::string>& candidates, bool if_exists,
                                  const std::string& shown) {
  ScopedLocks locks(ctx->catalog, {{db, ""}});
  if (ctx->catalog->GetDatabase(db) == nullptr) {
    if (if_exists) return NoOp(ctx, "Function does not exist.");
    return DatabaseNotFound(db);
  }
  FunctionPtr found;
  for (const std::string& sig : candidates) {
    found = ctx->catalog->GetFunction(db, sig);
    if (found != nullptr) break;
  }
  if (found == nullptr) {
    if (if_exists) return NoOp(ctx, "Function does not exist.");
    return Status::NotFound("Function does not exist: " + db + "." + shown);
  }
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::DropFunction(db, found->signature));
  Status committed = Commit(ctx, txn);
  // NOT_FOUND: dropped behind the catalog's back; just forget it.
  if (!committed.ok() && !committed.Is(ErrorCode::kNotFound)) return committed;
  ChangeSet cs;
  cs.drop_functions.emplace_back(db, found->signature);
  DdlOutcome out;
  out.version = ctx->catalog->Install(std::move(cs));
  out.removed_functions.push_back(found);
  out.summary = "Function has been dropped.";
  return out;
}

}  // namespace

Result<DdlOutcome> DropFunction(CatalogContext* ctx, const DropFunctionCommand& c) {
  const std::string& shown_name = c.name.empty() ? c.signature : c.name;
  if (c.db.empty()) return Status::InvalidArgument("Function " + shown_name + " has no database");
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(c.db));
  if (c.name.empty()) return DropFunctionOf(ctx, db, {c.signature}, c.if_exists, c.signature);
  ICS_ASSIGN_OR_RETURN(std::string name, NormalizeFunctionName(c.name));
  // The overload to drop: by argument types (with or without var args),
  // or by the signature the client computed.
  std::vector<std::string> candidates;
  ICS_ASSIGN_OR_RETURN(std::string exact, FunctionSignature(name, c.arg_types, false));
  candidates.push_back(exact);
  if (!c.arg_types.empty()) {
    ICS_ASSIGN_OR_RETURN(std::string varargs, FunctionSignature(name, c.arg_types, true));
    candidates.push_back(varargs);
  }
  if (!c.signature.empty()) candidates.push_back(c.signature);
  return DropFunctionOf(ctx, db, candidates, c.if_exists, exact);
}

}  // namespace ics::catalog::ddl

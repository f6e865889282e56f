// HmsFunctions: user-defined functions (mapping in common/hive/function_map.h).
#include <algorithm>

#include "catalogd/hms/hms_functions.h"
#include "catalogd/hms/hms_part_internal.h"
#include "catalogd/ops/command_core.h"
#include "common/hive/function_map.h"

namespace ics::catalog::hms {

Status HmsFunctions::CreateFunction(const hive::Function& fn) {
  ICS_RETURN_IF_ERROR(CheckCatalog(fn.catName));
  ICS_ASSIGN_OR_RETURN(impala::TFunction tf, FromHmsFunction(fn));
  if (fn.createTime == 0 && tf.__isset.binary_type &&
      tf.binary_type == impala::TFunctionBinaryType::JAVA &&
      tf.signature.find('(') == std::string::npos) {
    tf.__set_last_modified_time(static_cast<int64_t>(NowSeconds()) * 1000);
  }
  CreateFunctionCommand c;
  c.signature = tf.signature;  // as the HMS name maps to it (function_map.h)
  c.fn = std::move(tf);
  return commands_->CreateFunction(HmsCaller(), c).status();
}

Status HmsFunctions::DropFunction(const std::string& db_arg, const std::string& name) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(hive::Function existing, GetFunction(db, name));
  DropFunctionCommand c;
  c.db = existing.dbName;
  c.signature = existing.functionName;
  return commands_->DropFunction(HmsCaller(), c).status();
}

Result<std::vector<std::string>> HmsFunctions::GetFunctionNames(const std::string& db_arg,
                                                                const std::string& pattern) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(std::string d, NormalizeDatabaseName(db));
  ICS_ASSIGN_OR_RETURN(std::vector<impala::TFunction> fns, reads_->Functions(HmsCaller(), d));
  std::vector<std::string> out;
  for (const impala::TFunction& f : fns) {
    if (MatchesHmsPattern(pattern, f.signature)) out.push_back(f.signature);
  }
  ICS_RETURN_IF_ERROR(CheckCount(out.size(), opts_.max_objects_per_request, "functions"));
  return out;
}

Result<hive::Function> HmsFunctions::GetFunction(const std::string& db_arg,
                                                 const std::string& name) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(std::string d, NormalizeDatabaseName(db));
  const std::string sig = SignatureForHmsName(name);
  ICS_ASSIGN_OR_RETURN(std::vector<impala::TFunction> fns, reads_->Functions(HmsCaller(), d));
  for (const impala::TFunction& f : fns) {
    if (f.signature == sig) return ToHmsFunction(f);
  }
  return Status::NotFound("Function " + d + "." + name + " does not exist");
}

Result<std::vector<hive::Function>> HmsFunctions::GetAllFunctions() {
  const ops::Caller caller = HmsCaller();
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> dbs, reads_->DatabaseNames(caller));
  std::vector<hive::Function> out;
  for (const std::string& d : dbs) {
    Result<std::vector<impala::TFunction>> fns = reads_->Functions(caller, d);
    if (!fns.ok()) {
      if (fns.status().Is(ErrorCode::kNotFound)) continue;  // dropped meanwhile
      return fns.status();
    }
    for (const impala::TFunction& f : *fns) {
      ICS_ASSIGN_OR_RETURN(hive::Function hf, ToHmsFunction(f));
      out.push_back(std::move(hf));
    }
    ICS_RETURN_IF_ERROR(CheckCount(out.size(), opts_.max_objects_per_request, "functions"));
  }
  return out;
}

}  // namespace ics::catalog::hms

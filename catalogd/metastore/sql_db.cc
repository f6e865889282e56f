#include "catalogd/metastore/sql_db.h"

namespace ics::catalog::sqldb {

Status Stmt::Run() {
  while (true) {
    ICS_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return Status::OK();
  }
}

Status Transaction::Begin(TxnKind kind) {
  ICS_RETURN_IF_ERROR(conn_->Begin(kind));
  active_ = true;
  return Status::OK();
}

Status Transaction::Commit() {
  ICS_RETURN_IF_ERROR(conn_->Commit());  // on failure the destructor rolls back what is left
  active_ = false;
  return Status::OK();
}

}  // namespace ics::catalog::sqldb

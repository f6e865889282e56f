#include "catalogd/metastore/sql_writer_epoch.h"

#include <chrono>

namespace ics::catalog::sqldb {

Result<WriterEpoch> ReadWriterEpochRow(Connection* conn) {
  ICS_ASSIGN_OR_RETURN(
      Stmt st, conn->Prepare("SELECT epoch, owner, acquired_ms FROM catalogd_writer_epoch"));
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Status::Corruption("metastore " + conn->name() + " has no writer epoch row");
  WriterEpoch e;
  e.epoch = st.Int(0);
  e.owner = std::string(st.Text(1));
  e.acquired_ms = st.Int(2);
  return e;
}

Result<WriterEpoch> TakeNextWriterEpoch(Connection* conn, const std::string& owner) {
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  Transaction txn(conn);
  ICS_RETURN_IF_ERROR(txn.Begin(TxnKind::kWrite));
  ICS_ASSIGN_OR_RETURN(Stmt upd,
                       conn->Prepare("UPDATE catalogd_writer_epoch SET epoch = epoch + 1, "
                                     "owner = ?1, acquired_ms = ?2"));
  ICS_RETURN_IF_ERROR(upd.BindText(1, owner).BindInt(2, now_ms).Run());
  ICS_ASSIGN_OR_RETURN(WriterEpoch e, ReadWriterEpochRow(conn));
  ICS_RETURN_IF_ERROR(txn.Commit());
  return e;
}

}  // namespace ics::catalog::sqldb

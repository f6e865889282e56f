#include "catalogd/metastore/sql_writer_epoch.h"

#include <chrono>

namespace ics::catalog::sqldb {

Result<WriterEpoch> ReadWriterEpochRow(Connection* conn) {
  ICS_ASSIGN_OR_RETURN(Stmt st, conn->Prepare("SELECT epoch, designation, holder, owner, "
                                              "acquired_ms FROM catalogd_writer_epoch"));
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Status::Corruption("metastore " + conn->name() + " has no writer epoch row");
  WriterEpoch e;
  e.epoch = st.Int(0);
  e.designation = st.Int(1);
  e.holder = std::string(st.Text(2));
  e.owner = std::string(st.Text(3));
  e.acquired_ms = st.Int(4);
  return e;
}

Result<WriterEpoch> ClaimWriterEpoch(Connection* conn, const WriterEpochClaim& claim) {
  if (claim.designation < 1 || claim.holder.empty()) {
    return Status::InvalidArgument("a writer epoch claim needs a designation (>= 1) and a holder");
  }
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  Transaction txn(conn);
  ICS_RETURN_IF_ERROR(txn.Begin(TxnKind::kWrite));
  ICS_ASSIGN_OR_RETURN(WriterEpoch current, ReadWriterEpochRow(conn));
  const bool same_holder = current.holder == claim.holder;
  if (current.designation > claim.designation ||
      (current.designation == claim.designation && !same_holder)) {
    return Status(ErrorCode::kCatalogInStandbyMode,
                  "designation " + std::to_string(claim.designation) + " of " + claim.holder +
                      " is overtaken: writer epoch " + std::to_string(current.epoch) +
                      " is held by " + current.holder + " for designation " +
                      std::to_string(current.designation) + " (" + current.owner + ")");
  }
  // The holder re-keys the epoch it holds (its commits in flight stay
  // valid); any other claim fences every earlier holder.
  const bool rekey = same_holder && claim.held_epoch != 0 && claim.held_epoch == current.epoch;
  ICS_ASSIGN_OR_RETURN(Stmt upd, conn->Prepare("UPDATE catalogd_writer_epoch SET epoch = ?1, "
                                               "designation = ?2, holder = ?3, owner = ?4, "
                                               "acquired_ms = ?5"));
  ICS_RETURN_IF_ERROR(upd.BindInt(1, rekey ? current.epoch : current.epoch + 1)
                          .BindInt(2, claim.designation)
                          .BindText(3, claim.holder)
                          .BindText(4, claim.owner)
                          .BindInt(5, rekey ? current.acquired_ms : now_ms)
                          .Run());
  ICS_ASSIGN_OR_RETURN(WriterEpoch e, ReadWriterEpochRow(conn));
  ICS_RETURN_IF_ERROR(txn.Commit());
  return e;
}

}  // namespace ics::catalog::sqldb

// WalCheckpointer: the SQLite metastore's WAL checkpoints, on a thread of
// their own.
//
// By default SQLite checkpoints inside the commit that takes the WAL past
// its autocheckpoint size: that commit copies every page the WAL changed
// back into the database file and syncs both files before it returns, so
// one DDL in a few hundred waited milliseconds more than the others. Here
// a commit that leaves the WAL at `threshold_pages` or more only signals
// (sqlite3_wal_hook, which also turns the connection's autocheckpoint
// off), and this object's thread runs a PASSIVE checkpoint on a connection
// of its own: it never waits for a lock and never makes a writer wait.
// Durability is unchanged: a commit is durable once its WAL frames are
// synced (synchronous = FULL), checkpointed or not.
//
// Lifetime: the watched connection must not commit after this object is
// destroyed (sqlite::Connection owns it and destroys it first).
// Thread-safety: OnCommit runs on the committing thread; the rest is
// internal (the own connection is used by the thread only).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "common/util/mutex.h"
#include "common/util/result.h"

struct sqlite3;

namespace ics::catalog::sqlite {

class Connection;  // sqlite_db.h

class WalCheckpointer {
 public:
  // Opens its own connection to `path` (configured as the metastore's,
  // sqlite_schema.h) and starts the thread; `watched` is the connection
  // whose commits request checkpoints.
  static Result<std::unique_ptr<WalCheckpointer>> Start(const std::string& path,
                                                        sqlite3* watched, int threshold_pages);
  ~WalCheckpointer();  // stops the thread (a checkpoint in progress ends first)
  WalCheckpointer(const WalCheckpointer&) = delete;
  WalCheckpointer& operator=(const WalCheckpointer&) = delete;

  // Checkpoints run so far, and those that did not complete (an error, or
  // frames a reader still needed: the next request continues).
  int64_t checkpoints() const { return checkpoints_.load(); }
  int64_t incomplete() const { return incomplete_.load(); }

 private:
  WalCheckpointer(std::unique_ptr<Connection> own, int threshold_pages);
  static int OnCommit(void* self, sqlite3* db, const char* schema, int wal_pages);
  void Loop();
  // A PASSIVE checkpoint: whether the whole WAL is in the database file
  // now (false: frames a reader still needs are left for the next one).
  Result<bool> CheckpointOnce();

  const std::unique_ptr<Connection> own_;
  const int threshold_pages_;
  Mutex mu_;
  CondVar cv_;
  bool requested_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::atomic<int64_t> checkpoints_{0};
  std::atomic<int64_t> incomplete_{0};
  std::thread thread_;
};

}  // namespace ics::catalog::sqlite

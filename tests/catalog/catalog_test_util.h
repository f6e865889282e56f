// Builders of catalog states for tests.
#pragma once

#include <memory>
#include <string>

#include "StatestoreService_types.h"
#include "catalogd/catalog/catalog.h"
#include "common/codec/catalog_topic.h"
#include "common/codec/file_desc.h"

namespace ics::catalog::testing {

inline std::shared_ptr<DatabaseState> Db(const std::string& name) {
  auto d = std::make_shared<DatabaseState>();
  d->name = name;
  d->hms.name = name;
  return d;
}

// A loaded table with `parts` partitions "p=<i>" of `files` files each.
inline std::shared_ptr<TableState> Table(const std::string& db, const std::string& name,
                                         int parts, int files, int64_t first_id = 1) {
  auto t = std::make_shared<TableState>();
  t->db = db;
  t->name = name;
  t->loaded = true;
  t->hms.dbName = db;
  t->hms.tableName = name;
  t->hms.sd.location = "/wh/" + db + ".db/" + name;
  impala::TColumn key;
  key.columnName = "p";
  t->clustering_columns.push_back(key);
  for (int i = 0; i < parts; ++i) {
    auto p = NewPartition();
    p->id = first_id + i;
    p->set_name("p=" + std::to_string(i));
    p->set_values({std::to_string(i)});
    p->set_location(t->hms.sd.location + "/" + std::string(p->name()));
    FileDescList::Builder descs;
    for (int f = 0; f < files; ++f) {
      FileDescInfo info;
      info.relative_path = "f" + std::to_string(f);
      info.length = 100;
      descs.Add(BuildFileDesc(info), info.length, 0);
    }
    p->file_descs = descs.Finish();
    t->partitions_by_name.Put(p);
    t->partitions[p->id] = std::move(p);
  }
  return t;
}

// A statestore update of the catalog topic as the publisher's callback gets
// it: a delta (or a full update) from `from` to `to`.
inline impala::TTopicDelta TopicUpdate(int64_t from, int64_t to, bool is_delta) {
  impala::TTopicDelta d;
  d.topic_name = kCatalogTopic;
  d.is_delta = is_delta;
  d.__set_from_version(from);
  d.__set_to_version(to);
  return d;
}

}  // namespace ics::catalog::testing

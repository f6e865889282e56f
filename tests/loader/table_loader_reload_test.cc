// TableLoader reloads: what a reload keeps, re-lists or decodes again, and
// single-partition loads and refreshes (ADD PARTITION, INSERT).
#include <memory>

#include "catalogd/loader/table_load_manager.h"
#include "common/codec/partition_stats.h"
#include "tests/loader/table_loader_fixture.h"

namespace ics::catalog {
namespace {

TEST_F(TableLoaderTest, ReloadKeepsUnchangedPartitions) {
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto a = loader.Load("db1", "sales");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  // Nothing changed: every partition is the previous state itself.
  auto b = loader.Load("db1", "sales", a->get());
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ((*b)->partitions.size(), 3u);
  for (const auto& [id, p] : (*b)->partitions) {
    ASSERT_EQ((*a)->partitions.count(id), 1u) << p->name();
    EXPECT_EQ((*a)->partitions.at(id).get(), p.get()) << p->name();
  }
  // A new file in one partition, a new parameter on another: those two get
  // new ids that point back at the old ones; the third is kept.
  AddJanuaryFileAndFebruaryParameter();
  auto c = loader.Load("db1", "sales", b->get());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const PartitionState* jan_old = (*b)->FindPartition("year=2024/month=01");
  const PartitionState* jan = (*c)->FindPartition("year=2024/month=01");
  const PartitionState* feb_old = (*b)->FindPartition("year=2024/month=02");
  const PartitionState* feb = (*c)->FindPartition("year=2024/month=02");
  const PartitionState* ab_old = (*b)->FindPartition("year=2025/month=a%2Fb");
  const PartitionState* ab = (*c)->FindPartition("year=2025/month=a%2Fb");
  ASSERT_TRUE(jan && jan_old && feb && feb_old && ab && ab_old);
  EXPECT_NE(jan->id, jan_old->id);
  EXPECT_EQ(jan->prev_id, jan_old->id);
  EXPECT_EQ(jan->file_descs.size(), jan_old->file_descs.size() + 1);
  EXPECT_NE(feb->id, feb_old->id);
  EXPECT_EQ(feb->prev_id, feb_old->id);
  EXPECT_EQ(ab, ab_old);
  // An unloaded previous state is no base.
  auto unloaded = MakeUnloadedTable("db1", "sales");
  auto d = loader.Load("db1", "sales", unloaded.get());
  ASSERT_TRUE(d.ok());
  for (const auto& [id, p] : (*d)->partitions) EXPECT_EQ((*c)->partitions.count(id), 0u);
}

// With a metastore that names and digests partitions before decoding them
// (as the SQL metastores do), a reload decodes only the partitions whose
// stored form changed; the others are re-listed only, and a changed
// listing still gives a new state.
TEST_F(TableLoaderTest, ReloadDecodesOnlyChangedStoredPartitions) {
  ms_.UseStoredForm(true);
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto a = loader.Load("db1", "sales");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ms_.decodes(), 3);
  for (const auto& [id, p] : (*a)->partitions) EXPECT_NE(p->source_digest(), 0u) << p->name();

  auto b = loader.Load("db1", "sales", a->get());
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(ms_.decodes(), 3) << "an unchanged table is not decoded again";
  for (const auto& [id, p] : (*b)->partitions) {
    EXPECT_EQ((*a)->partitions.at(id).get(), p.get()) << p->name();
  }

  // A new file in January (metastore unchanged), a new parameter on
  // February (stored form changed).
  AddJanuaryFileAndFebruaryParameter();
  auto c = loader.Load("db1", "sales", b->get());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(ms_.decodes(), 4) << "only February is decoded";
  const PartitionState* jan_old = (*b)->FindPartition("year=2024/month=01");
  const PartitionState* jan = (*c)->FindPartition("year=2024/month=01");
  const PartitionState* feb_old = (*b)->FindPartition("year=2024/month=02");
  const PartitionState* feb_new = (*c)->FindPartition("year=2024/month=02");
  ASSERT_TRUE(jan && jan_old && feb_old && feb_new);
  EXPECT_EQ(jan->prev_id, jan_old->id);
  EXPECT_EQ(jan->file_descs.size(), jan_old->file_descs.size() + 1);
  EXPECT_EQ(jan->source_digest(), jan_old->source_digest());
  EXPECT_EQ(feb_new->prev_id, feb_old->id);
  EXPECT_EQ(feb_new->hms_parameters().ToMap().at("owner_note"), "x");
  EXPECT_NE(feb_new->source_digest(), feb_old->source_digest());
  EXPECT_EQ((*c)->table_stats.total_file_bytes, (*b)->table_stats.total_file_bytes + 7);

  // A copy made to be changed (a DDL) carries no digest, so the next
  // reload decodes it rather than trusting what it was built from.
  EXPECT_EQ(NewPartition(*jan)->source_digest(), 0u);

  // A partition added by a DDL has no digest yet: the reload decodes it,
  // keeps its id and version, and remembers the digest for the next one.
  WriteFile(table_dir_ + "/year=2030/month=12/x.lz4", 5);
  ASSERT_TRUE(ms_.PutPartition(Partition({"2030", "12"})).ok());
  std::shared_ptr<TableState> d = std::make_shared<TableState>(**c);
  auto added = loader.LoadPartition(*d, Partition({"2030", "12"}));
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  (*added)->added_version = 9;
  d->partitions.emplace((*added)->id, *added);
  loader.FinishTableState(d.get(), c->get());
  EXPECT_EQ((*added)->source_digest(), 0u);
  const int64_t before = ms_.decodes();
  auto e = loader.Load("db1", "sales", d.get());
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(ms_.decodes(), before + 1);
  const PartitionState* dec = (*e)->FindPartition("year=2030/month=12");
  ASSERT_NE(dec, nullptr);
  EXPECT_EQ(dec->id, (*added)->id);
  EXPECT_EQ(dec->added_version, 9);
  EXPECT_NE(dec->source_digest(), 0u);
  EXPECT_EQ((*e)->partitions.size(), 4u);
  auto f = loader.Load("db1", "sales", e->get());
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(ms_.decodes(), before + 1);
  EXPECT_EQ((*f)->FindPartition("year=2030/month=12"), dec);

  // A moved table: partitions derive their directories from its location,
  // so everything is decoded again.
  hive::Table moved = ms_.GetTable("db1", "sales").value();
  moved.sd.location = table_dir_ + "/../moved";
  ms_.PutTable(moved);
  auto g = loader.Load("db1", "sales", f->get());
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(ms_.decodes(), before + 1 + 4);
}

TEST_F(TableLoaderTest, LoadPartitionAndRefresh) {
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("db1", "sales");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::shared_ptr<TableState> t = *r;

  // A new partition (ADD PARTITION / INSERT).
  WriteFile(table_dir_ + "/year=2030/month=12/x.lz4", 5);
  auto added = loader.LoadPartition(*t, Partition({"2030", "12"}));
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_EQ((*added)->name(), "year=2030/month=12");
  EXPECT_EQ((*added)->prev_id, -1);
  EXPECT_EQ((*added)->file_descs.size(), 1u);
  EXPECT_EQ(t->partitions.count((*added)->id), 0u);
  t->partitions.emplace((*added)->id, *added);
  loader.FinishTableState(t.get());
  EXPECT_EQ(t->FindPartition("year=2030/month=12"), added->get());
  EXPECT_EQ(t->table_stats.total_file_bytes, 455);

  // Unchanged directory: the same object comes back.
  const int64_t old_id = t->partitions_by_name.Find("year=2024/month=01")->id;
  PartitionPtr old = t->partitions.at(old_id);
  auto same = loader.RefreshPartition(old);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->get(), old.get());

  // A new file: a new partition object replacing the old one.
  WriteFile(old->location() + "/000002_0", 20);
  auto changed = loader.RefreshPartition(old);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  const PartitionState& np = **changed;
  EXPECT_NE(&np, old.get());
  EXPECT_NE(np.id, old->id);
  EXPECT_EQ(np.prev_id, old->id);
  EXPECT_EQ(np.added_version, 0);
  EXPECT_EQ(np.name(), old->name());
  EXPECT_EQ(np.file_descs.size(), 3u);
  EXPECT_EQ(np.total_file_bytes(), 420);
  EXPECT_EQ(np.partition_stats(), old->partition_stats());
  EXPECT_TRUE(np.has_incremental_stats());
  EXPECT_EQ(np.num_rows(), old->num_rows());

  // A rewritten file (same name, new size) is a change too.
  auto again = loader.RefreshPartition(*changed);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), changed->get());
  WriteFile(old->location() + "/000002_0", 21);
  auto rewritten = loader.RefreshPartition(*changed);
  ASSERT_TRUE(rewritten.ok());
  EXPECT_NE(rewritten->get(), changed->get());
  EXPECT_EQ((*rewritten)->total_file_bytes(), 421);

  // Writing back: the stripped stats chunks are restored.
  auto written = PartitionForMetastore(**rewritten);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(written->values, old->values());
  EXPECT_EQ(written->parameters.at("numRows"), "600");
  auto back = GetStatsFromParams(written->parameters);
  ASSERT_TRUE(back.ok() && back->has_value());
  EXPECT_EQ(**back, SampleStats(5000));
  auto plain = PartitionForMetastore(**added);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->parameters.count(kStatsNumChunksParam), 0u);
}

// As Impala describes files of a store without block locations (a local
// filesystem): no blocks, no hosts; lengths and times as listed.

}  // namespace
}  // namespace ics::catalog

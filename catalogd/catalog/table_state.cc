// Definitions of the helpers declared in table_state.h.
//
// EstimateBytes models glibc malloc: every heap block costs its size plus an
// 8-byte header, rounded up to 16, at least 32 bytes; strings that fit the
// small-string buffer (15 chars) cost nothing beyond their owner. Partitions
// shared with other table versions are counted in full by each table.
#include "catalogd/catalog/table_state.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "common/hive/partition_name.h"
#include "common/hive/table_params.h"
#include "common/util/path_join.h"
#include "common/util/varint.h"

namespace ics::catalog {

namespace {

// Bytes glibc malloc uses for a request of `n` bytes.
int64_t Alloc(size_t n) {
  if (n == 0) return 0;
  return static_cast<int64_t>(std::max<size_t>(32, (n + 8 + 15) & ~size_t{15}));
}

// Red-black tree node header (color, parent, left, right).
constexpr size_t kMapNodeHeader = 32;

int64_t Heap(const std::string& s) { return s.capacity() > 15 ? Alloc(s.capacity() + 1) : 0; }

template <typename T>
int64_t VectorBuffer(const std::vector<T>& v) {
  return Alloc(v.capacity() * sizeof(T));
}

int64_t Heap(const std::vector<std::string>& v) {
  int64_t b = VectorBuffer(v);
  for (const std::string& s : v) b += Heap(s);
  return b;
}

int64_t Heap(const std::map<std::string, std::string>& m) {
  int64_t b = 0;
  for (const auto& [k, v] : m) {
    b += Alloc(kMapNodeHeader + sizeof(std::pair<const std::string, std::string>)) + Heap(k) +
         Heap(v);
  }
  return b;
}

int64_t Heap(const std::vector<hive::FieldSchema>& cols) {
  int64_t b = VectorBuffer(cols);
  for (const hive::FieldSchema& f : cols) b += Heap(f.name) + Heap(f.type) + Heap(f.comment);
  return b;
}

int64_t Heap(const hive::StorageDescriptor& sd) {
  int64_t b = Heap(sd.cols) + Heap(sd.location) + Heap(sd.inputFormat) + Heap(sd.outputFormat);
  b +=
      Heap(sd.serdeInfo.name) + Heap(sd.serdeInfo.serializationLib) + Heap(sd.serdeInfo.parameters);
  b += Heap(sd.bucketCols) + VectorBuffer(sd.sortCols) + Heap(sd.parameters);
  for (const hive::Order& o : sd.sortCols) b += Heap(o.col);
  return b;
}

int64_t Heap(const hive::Partition& p) {
  return Heap(p.values) + Heap(p.dbName) + Heap(p.tableName) + Heap(p.sd) + Heap(p.parameters);
}

int64_t Heap(const impala::TColumnType& t) {
  int64_t b = VectorBuffer(t.types);
  for (const impala::TTypeNode& n : t.types) {
    b += VectorBuffer(n.struct_fields);
    for (const impala::TStructField& f : n.struct_fields) b += Heap(f.name) + Heap(f.comment);
  }
  return b;
}

int64_t Heap(const std::vector<impala::TColumn>& cols) {
  int64_t b = VectorBuffer(cols);
  for (const impala::TColumn& c : cols)
    b += Heap(c.columnName) + Heap(c.comment) + Heap(c.columnType);
  return b;
}

}  // namespace

int64_t PartitionState::EstimateBytes() const {
  // The object itself (its reference count is inside).
  int64_t b = Alloc(sizeof(PartitionState));
  b += Alloc(strings_.HeapBytes()) + Alloc(file_descs.HeapBytes());
  return b;
}

void intrusive_ptr_add_ref(const PartitionState* p) { p->refs.Add(); }

void intrusive_ptr_release(const PartitionState* p) {
  if (p->refs.Release()) delete p;
}

MutablePartitionPtr NewPartition() { return MutablePartitionPtr(new PartitionState()); }

MutablePartitionPtr NewPartition(const PartitionState& from) {
  MutablePartitionPtr p(new PartitionState(from));
  p->set_source_digest(0);  // made to be changed: no stored form matches it until a reload
  return p;
}

hive::Partition PartitionState::Hms() const {
  hive::Partition out = hms_shape != nullptr ? *hms_shape : hive::Partition();
  out.values = values();
  out.parameters = hms_parameters().ToMap();
  out.sd.location = hms_has_location() ? location() : std::string();
  out.createTime = hms_create_time;
  out.lastAccessTime = hms_last_access_time;
  return out;
}

int64_t PartitionState::num_rows() const {
  const std::optional<std::string_view> v = hms_parameters().Find(kNumRowsParam);
  return v.has_value() ? NumRowsValue(*v) : -1;
}

std::vector<std::string> PartitionState::values() const {
  const std::string_view enc = strings_.Get(PartitionStrings::kValues);
  if (enc.empty()) return PartitionValuesFromName(name());
  std::vector<std::string> out;
  size_t pos = 0;
  uint64_t n = 0;
  if (!ReadVarint(enc, &pos, &n)) throw std::logic_error("PartitionState: bad stored values");
  for (uint64_t i = 0; i < n; ++i) {
    std::string_view v;
    if (!ReadLengthPrefixed(enc, &pos, &v)) {
      throw std::logic_error("PartitionState: bad stored values");
    }
    out.emplace_back(v);
  }
  return out;
}

void PartitionState::set_values(const std::vector<std::string>& v) {
  if (PartitionValuesFromName(name()) == v) {
    strings_.Set(PartitionStrings::kValues, {});
    return;
  }
  std::string enc;
  PutVarint(v.size(), &enc);
  for (const std::string& x : v) PutLengthPrefixed(x, &enc);
  strings_.Set(PartitionStrings::kValues, enc);
}

std::string PartitionState::location() const {
  const std::string_view own = strings_.Get(PartitionStrings::kLocation);
  if (!own.empty() || hms_shape == nullptr || hms_shape->sd.location.empty()) {
    return std::string(own);
  }
  return JoinPath(hms_shape->sd.location, name());
}

std::string_view PartitionState::location_base() const {
  if (!strings_.Get(PartitionStrings::kLocation).empty() || hms_shape == nullptr) return {};
  return hms_shape->sd.location;
}

void PartitionState::SetHms(hive::Partition hms, const std::string& location,
                            const std::string& table_location, PartitionShapes* shapes) {
  const bool derived =
      !name().empty() && !table_location.empty() && location == JoinPath(table_location, name());
  const std::string parameters = CompactStringMap::Encode(hms.parameters);
  const bool has_location = !hms.sd.location.empty();
  hms_create_time = hms.createTime;
  hms_last_access_time = hms.lastAccessTime;
  hms.values.clear();
  hms.parameters.clear();
  hms.sd.location = derived ? table_location : std::string();
  strings_.Set({{PartitionStrings::kParameters, parameters},
                {PartitionStrings::kLocation, derived ? std::string_view() : location}},
               {{PartitionStrings::kHmsHasLocation, has_location}});
  hms.createTime = 0;
  hms.lastAccessTime = 0;
  hms_shape = shapes != nullptr ? shapes->Intern(std::move(hms))
                                : std::make_shared<const hive::Partition>(std::move(hms));
}

const hive::StorageDescriptor& PartitionState::sd() const {
  static const hive::StorageDescriptor* const kNone = new hive::StorageDescriptor();
  return hms_shape != nullptr ? hms_shape->sd : *kNone;
}

PartitionShapes::PartitionShapes(const TableState& t) {
  MutexLock l(&mu_);
  if (t.partitions.empty()) return;
  Add(t.partitions.begin()->second->hms_shape);
  Add(t.partitions.back().second->hms_shape);
  desc_reference_ = t.partitions.begin()->second->file_descs.reference();
}

FileDescList::Reference PartitionShapes::DescReference(std::string_view candidate) {
  MutexLock l(&mu_);
  if (desc_reference_.empty()) desc_reference_ = FileDescList::Reference(candidate);
  return desc_reference_;
}

void PartitionShapes::Add(std::shared_ptr<const hive::Partition> shape) {
  if (shape == nullptr || shapes_.size() >= kMaxShapes) return;
  for (const auto& s : shapes_) {
    if (s == shape) return;
  }
  shapes_.push_back(std::move(shape));
}

std::shared_ptr<const hive::Partition> PartitionShapes::Intern(hive::Partition shape) {
  MutexLock l(&mu_);
  for (const auto& s : shapes_) {
    if (*s == shape) return s;
  }
  auto made = std::make_shared<const hive::Partition>(std::move(shape));
  Add(made);
  return made;
}

// Whether two shapes are equal but for the directory a location is derived
// from (the locations themselves are compared on their own).
static bool SameShape(const std::shared_ptr<const hive::Partition>& a,
                      const std::shared_ptr<const hive::Partition>& b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  if (a->sd.location == b->sd.location) return *a == *b;
  hive::Partition x = *a;
  hive::Partition y = *b;
  x.sd.location.clear();
  y.sd.location.clear();
  return x == y;
}

uint64_t PartitionState::source_digest() const {
  const std::string_view bytes = strings_.Get(PartitionStrings::kSourceDigest);
  if (bytes.size() != sizeof(uint64_t)) return 0;
  uint64_t d = 0;
  for (size_t i = 0; i < sizeof d; ++i) {
    d |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return d;
}

void PartitionState::set_source_digest(uint64_t digest) {
  if (digest == 0) {
    strings_.Set(PartitionStrings::kSourceDigest, {});
    return;
  }
  char bytes[sizeof digest];
  for (size_t i = 0; i < sizeof digest; ++i) bytes[i] = static_cast<char>(digest >> (8 * i));
  strings_.Set(PartitionStrings::kSourceDigest, std::string_view(bytes, sizeof bytes));
}

bool SameContent(const PartitionState& a, const PartitionState& b) {
  // The blocks differ when only the way the directory is kept differs.
  auto same = [&](PartitionStrings::Part part) {
    return a.strings_.Get(part) == b.strings_.Get(part);
  };
  return same(PartitionStrings::kName) && same(PartitionStrings::kValues) &&
         same(PartitionStrings::kStats) && same(PartitionStrings::kParameters) &&
         a.location() == b.location() &&
         a.total_file_bytes() == b.total_file_bytes() && a.num_blocks() == b.num_blocks() &&
         a.has_incremental_stats() == b.has_incremental_stats() &&
         a.file_descs == b.file_descs && a.hms_create_time == b.hms_create_time &&
         a.hms_last_access_time == b.hms_last_access_time &&
         a.hms_has_location() == b.hms_has_location() && SameShape(a.hms_shape, b.hms_shape);
}

const PartitionState* TableState::FindPartition(std::string_view part_name) const {
  return partitions_by_name.Find(part_name);
}

int64_t TableState::NumFiles() const {
  int64_t n = 0;
  for (const auto& [id, p] : partitions) n += static_cast<int64_t>(p->file_descs.size());
  return n;
}

int64_t TableState::EstimateBytes() const {
  int64_t b = Alloc(sizeof(TableState) + 16);
  b += Heap(db) + Heap(name) + Heap(load_status.message());
  b += Heap(hms.tableName) + Heap(hms.dbName) + Heap(hms.owner) + Heap(hms.sd) +
       Heap(hms.partitionKeys) + Heap(hms.parameters) + Heap(hms.viewOriginalText) +
       Heap(hms.viewExpandedText) + Heap(hms.tableType);
  b += Heap(clustering_columns) + Heap(columns);
  std::unordered_set<const hive::Partition*> shapes;
  b += Alloc(partitions.num_chunks() * 16) +
       static_cast<int64_t>(partitions.num_chunks()) * Alloc(sizeof(std::vector<int>) + 16);
  b += Alloc(partitions.capacity() * sizeof(std::pair<int64_t, PartitionPtr>));
  for (const auto& [id, p] : partitions) {
    b += p->EstimateBytes();
    if (p->hms_shape != nullptr && shapes.insert(p->hms_shape.get()).second) {
      b += Alloc(sizeof(hive::Partition) + 16) + Heap(*p->hms_shape);
    }
  }
  const PartitionNameIndex::Map& by_name = partitions_by_name.map();
  b += Alloc(by_name.num_chunks() * 16) +
       static_cast<int64_t>(by_name.num_chunks()) * Alloc(sizeof(std::vector<int>) + 16);
  b += Alloc(by_name.capacity() * sizeof(PartitionNameIndex::Map::value_type));
  for (const auto& [col, stats] : column_stats) {
    b += Alloc(kMapNodeHeader + sizeof(std::pair<const std::string, hive::ColumnStatisticsObj>));
    b += Heap(col) + Heap(stats.colName) + Heap(stats.colType);
  }
  b += VectorBuffer(network_addresses);
  for (const impala::TNetworkAddress& a : network_addresses) b += Heap(a.hostname);
  b += Heap(partition_prefixes);
  return b;
}

}  // namespace ics::catalog

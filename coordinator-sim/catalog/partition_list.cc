#include "coordinator-sim/catalog/partition_list.h"

#include "common/hive/partition_name.h"
#include "common/hive/scalar_text.h"

namespace ics::coord {

namespace {

// The heap bytes of a string beyond the object itself (none while it fits
// the inline buffer).
int64_t StringHeap(const std::string& s) {
  return s.size() < sizeof(std::string) - 1 ? 0 : static_cast<int64_t>(s.capacity() + 1);
}

// What EstimateBytes() counts for one entry of each map.
int64_t NameEntryBytes(const std::string& name) {
  return static_cast<int64_t>(sizeof(std::pair<int64_t, std::string>)) + StringHeap(name);
}
int64_t IndexEntryBytes(const std::string& key) {
  return static_cast<int64_t>(sizeof(std::pair<std::string, char>)) + StringHeap(key);
}

}  // namespace

PartitionList::PartitionList(const std::vector<impala::TColumn>& keys) {
  auto types = std::make_shared<std::vector<impala::TColumnType>>();
  for (const impala::TColumn& k : keys) types->push_back(k.columnType);
  key_types_ = std::move(types);
}

PartitionList::PartitionList(const std::vector<impala::TColumn>& keys,
                             std::vector<std::pair<int64_t, std::string>> names)
    : PartitionList(keys) {
  names_ = Names::FromEntries(std::move(names));
  std::vector<std::pair<std::string, char>> index;
  index.reserve(names_.size());
  for (const auto& [id, name] : names_) {
    bytes_ += NameEntryBytes(name);
    if (std::optional<std::string> key = IndexKey(id, name)) {
      bytes_ += IndexEntryBytes(*key);
      index.emplace_back(std::move(*key), '\0');
    }
  }
  by_value_ = PersistentMap<std::string, char>::FromEntries(std::move(index));
}

std::string PartitionList::ValuesKey(const std::vector<std::string>& values) const {
  std::string key;
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string k = PartitionValueKey((*key_types_)[i], values[i]);
    key += std::to_string(k.size());
    key.push_back(':');
    key += k;
  }
  return key;
}

std::string PartitionList::IdSuffix(int64_t id) {
  std::string out(8, '\0');
  const auto u = static_cast<uint64_t>(id) ^ (uint64_t{1} << 63);  // orders as signed
  for (int i = 0; i < 8; ++i) out[static_cast<size_t>(i)] = static_cast<char>(u >> (56 - 8 * i));
  return out;
}

std::optional<std::string> PartitionList::IndexKey(int64_t id, const std::string& name) const {
  if (key_types_ == nullptr) return std::nullopt;
  const std::vector<std::string> values = PartitionValuesFromName(name);
  if (values.size() != key_types_->size()) return std::nullopt;
  return ValuesKey(values) + IdSuffix(id);
}

void PartitionList::Index(int64_t id, const std::string& name, bool add) {
  const std::optional<std::string> key = IndexKey(id, name);
  if (!key) return;
  const int64_t cost = IndexEntryBytes(*key);
  if (add) {
    if (by_value_.emplace(*key, '\0').second) bytes_ += cost;
  } else if (by_value_.erase(*key) != 0) {
    bytes_ -= cost;
  }
}

void PartitionList::Add(int64_t id, std::string name) {
  if (const std::string* old = Name(id)) {
    if (*old == name) return;
    Erase(id);
  }
  Index(id, name, /*add=*/true);
  bytes_ += NameEntryBytes(name);
  names_.emplace(id, std::move(name));
}

bool PartitionList::Erase(int64_t id) {
  auto it = names_.find(id);
  if (it == names_.end()) return false;
  const std::string name = it->second;
  Index(id, name, /*add=*/false);
  bytes_ -= NameEntryBytes(name);
  names_.erase(id);
  return true;
}

void PartitionList::Clear() {
  names_.clear();
  by_value_.clear();
  bytes_ = 0;
}

const std::string* PartitionList::Name(int64_t id) const {
  auto it = names_.find(id);
  return it == names_.end() ? nullptr : &it->second;
}

std::vector<int64_t> PartitionList::FindByValues(const std::vector<std::string>& values) const {
  std::vector<int64_t> ids;
  if (key_types_ == nullptr || values.size() != key_types_->size()) return ids;
  const std::string prefix = ValuesKey(values);
  for (auto it = by_value_.lower_bound(prefix); it != by_value_.end(); ++it) {
    const std::string& key = it->first;
    if (key.size() != prefix.size() + 8 || key.compare(0, prefix.size(), prefix) != 0) break;
    uint64_t u = 0;
    for (size_t i = prefix.size(); i < key.size(); ++i) u = (u << 8) | static_cast<uint8_t>(key[i]);
    ids.push_back(static_cast<int64_t>(u ^ (uint64_t{1} << 63)));
  }
  return ids;
}

std::map<int64_t, std::string> PartitionList::ToMap() const {
  return std::map<int64_t, std::string>(names_.begin(), names_.end());
}

}  // namespace ics::coord

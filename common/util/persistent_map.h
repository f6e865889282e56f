// PersistentMap: an ordered map whose copies share storage, so that a table
// state and the next one (one partition added) cost O(changed), not
// O(partitions).
//
// Entries live in sorted chunks of at most kMaxChunk entries; the map is a
// vector of shared pointers to chunks. Copying a map copies that vector
// (size / kMaxChunk pointers), not the entries. A write copies the one chunk
// it touches if another map still shares it (copy on write), splitting it
// in two when it grows past kMaxChunk and dropping it when it empties. Two
// maps derived from one another share every chunk neither changed, which
// ForEachDifference uses to skip them.
//
// Interface: the parts of std::map that the catalogs use: ordered const
// iteration over std::pair<K, V>, find, count, lower_bound, at, size,
// empty, emplace, insert_or_assign, operator[] (inserts a default value),
// erase by key, clear, front and back; and FromEntries, which builds a map
// from many entries at once. Iterators and references are
// invalidated by any write to the same map object (not by writes to its
// copies).
//
// Entries: by default an entry is a std::pair<K, V>. Another Entries type
// may store less, for values that carry their own key (a partition held
// under its own name: an entry is then the value alone and its key is read
// from it). It provides Entry, Key(entry) (a K, or a reference to one),
// Value(entry) (a V reference, const and not) and Make(key, value) (the
// entry for `key`; for a value that carries its key, `key` must be it).
//
// Thread-safety: like std::map, a map object is not safe to write while
// another thread uses it. Copies are independent objects and may be used
// and written concurrently: shared chunks are never written (the writer
// copies a chunk unless its own map is the only holder).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ics {

// The default entries of a PersistentMap: (key, value) pairs.
template <typename K, typename V>
struct PairEntries {
  using Entry = std::pair<K, V>;
  static const K& Key(const Entry& e) { return e.first; }
  static const V& Value(const Entry& e) { return e.second; }
  static V& Value(Entry& e) { return e.second; }
  template <typename VV>
  static Entry Make(const K& key, VV&& value) {
    return Entry(key, std::forward<VV>(value));
  }
};

template <typename K, typename V, typename Entries = PairEntries<K, V>>
class PersistentMap {
 public:
  using key_type = K;
  using mapped_type = V;
  using value_type = typename Entries::Entry;
  static constexpr size_t kMaxChunk = 256;

 private:
  using Chunk = std::vector<value_type>;
  using ChunkPtr = std::shared_ptr<Chunk>;

 public:
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = PersistentMap::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = const value_type*;
    using reference = const value_type&;

    const_iterator() = default;
    reference operator*() const { return (*(*chunks_)[c_])[e_]; }
    pointer operator->() const { return &**this; }
    const_iterator& operator++() {
      if (++e_ == (*chunks_)[c_]->size()) {
        ++c_;
        e_ = 0;
      }
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const const_iterator& o) const { return c_ == o.c_ && e_ == o.e_; }
    bool operator!=(const const_iterator& o) const { return !(*this == o); }

   private:
    friend class PersistentMap;
    const_iterator(const std::vector<ChunkPtr>* chunks, size_t c, size_t e)
        : chunks_(chunks), c_(c), e_(e) {}
    const std::vector<ChunkPtr>* chunks_ = nullptr;
    size_t c_ = 0;
    size_t e_ = 0;
  };
  using iterator = const_iterator;

  PersistentMap() = default;

  // A map of `entries`, given in any order; of entries with equal keys the
  // last is kept, as inserting them in turn with insert_or_assign would.
  // Costs a sort (nothing when they come sorted) and one move of each entry
  // into full chunks, where inserting them one at a time searches and
  // shifts a chunk for each.
  static PersistentMap FromEntries(std::vector<value_type> entries) {
    auto less = [](const value_type& a, const value_type& b) {
      return Entries::Key(a) < Entries::Key(b);
    };
    if (!std::is_sorted(entries.begin(), entries.end(), less)) {
      std::stable_sort(entries.begin(), entries.end(), less);
    }
    size_t kept = 0;  // entries[0, kept): ascending keys, the last of each key
    for (size_t i = 0; i < entries.size(); ++i) {
      if (kept > 0 && !less(entries[kept - 1], entries[i])) {
        entries[kept - 1] = std::move(entries[i]);
      } else {
        if (kept != i) entries[kept] = std::move(entries[i]);
        ++kept;
      }
    }
    PersistentMap m;
    for (size_t i = 0; i < kept; i += kMaxChunk) {
      const size_t end = std::min(kept, i + kMaxChunk);
      auto ch = std::make_shared<Chunk>();
      ch->reserve(end - i);
      ch->assign(std::make_move_iterator(entries.begin() + static_cast<std::ptrdiff_t>(i)),
                 std::make_move_iterator(entries.begin() + static_cast<std::ptrdiff_t>(end)));
      m.chunks_.push_back(std::move(ch));
    }
    m.size_ = kept;
    return m;
  }

  const_iterator begin() const { return const_iterator(&chunks_, 0, 0); }
  const_iterator end() const { return const_iterator(&chunks_, chunks_.size(), 0); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Preconditions: !empty().
  const value_type& front() const { return chunks_.front()->front(); }
  const value_type& back() const { return chunks_.back()->back(); }

  const_iterator find(const K& key) const {
    const size_t c = ChunkFor(key);
    if (c == chunks_.size()) return end();
    const Chunk& ch = *chunks_[c];
    auto it = LowerBound(ch, key);
    if (it == ch.end() || Entries::Key(*it) != key) return end();
    return const_iterator(&chunks_, c, static_cast<size_t>(it - ch.begin()));
  }
  size_t count(const K& key) const { return find(key) == end() ? 0 : 1; }
  // The first entry whose key is not less than `key`; end() if none.
  const_iterator lower_bound(const K& key) const {
    const size_t c = ChunkFor(key);
    if (c == chunks_.size()) return begin();  // key precedes every entry (or the map is empty)
    const Chunk& ch = *chunks_[c];
    auto it = LowerBound(ch, key);
    if (it == ch.end()) return const_iterator(&chunks_, c + 1, 0);
    return const_iterator(&chunks_, c, static_cast<size_t>(it - ch.begin()));
  }
  const V& at(const K& key) const {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("PersistentMap::at");
    return Entries::Value(*it);
  }

  // Inserts (key, value) unless key is present; returns where the entry is
  // and whether it was inserted.
  template <typename VV>
  std::pair<const_iterator, bool> emplace(const K& key, VV&& value) {
    return Insert(key, std::forward<VV>(value), /*assign=*/false);
  }
  template <typename VV>
  std::pair<const_iterator, bool> insert_or_assign(const K& key, VV&& value) {
    return Insert(key, std::forward<VV>(value), /*assign=*/true);
  }
  V& operator[](const K& key) {
    auto [it, inserted] = Insert(key, V(), /*assign=*/false);
    (void)inserted;
    return Entries::Value((*chunks_[it.c_])[it.e_]);  // the chunk is this map's own now
  }

  // Removes key; returns how many entries were removed (0 or 1).
  size_t erase(const K& key) {
    const size_t c = ChunkFor(key);
    if (c == chunks_.size()) return 0;
    const Chunk& ch = *chunks_[c];
    auto it = LowerBound(ch, key);
    if (it == ch.end() || Entries::Key(*it) != key) return 0;
    const size_t e = static_cast<size_t>(it - ch.begin());
    Chunk& own = Own(c);
    own.erase(own.begin() + static_cast<std::ptrdiff_t>(e));
    if (own.empty()) chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(c));
    --size_;
    return 1;
  }

  void clear() {
    chunks_.clear();
    size_ = 0;
  }

  // Calls fn(key, const V* before, const V* after) for every key whose entry
  // differs between `before` and `after` (value compared with ==): before
  // is null for an added key, after for a removed one. Keys in order.
  // Chunks the two maps share are skipped without looking at their
  // entries, so for a map derived from the other the cost is that of the
  // chunks written.
  template <typename Fn>
  static void ForEachDifference(const PersistentMap& before, const PersistentMap& after, Fn&& fn) {
    size_t ac = 0, ae = 0, bc = 0, be = 0;
    const auto& A = before.chunks_;
    const auto& B = after.chunks_;
    auto step = [](const std::vector<ChunkPtr>& cs, size_t* c, size_t* e) {
      if (++*e == cs[*c]->size()) {
        ++*c;
        *e = 0;
      }
    };
    while (ac < A.size() || bc < B.size()) {
      if (ac < A.size() && bc < B.size() && ae == 0 && be == 0 && A[ac] == B[bc]) {
        ++ac;
        ++bc;
        continue;
      }
      if (bc == B.size() ||
          (ac < A.size() && Entries::Key((*A[ac])[ae]) < Entries::Key((*B[bc])[be]))) {
        const value_type& a = (*A[ac])[ae];
        fn(Entries::Key(a), &Entries::Value(a), static_cast<const V*>(nullptr));
        step(A, &ac, &ae);
      } else if (ac == A.size() || Entries::Key((*B[bc])[be]) < Entries::Key((*A[ac])[ae])) {
        const value_type& b = (*B[bc])[be];
        fn(Entries::Key(b), static_cast<const V*>(nullptr), &Entries::Value(b));
        step(B, &bc, &be);
      } else {
        const value_type& a = (*A[ac])[ae];
        const value_type& b = (*B[bc])[be];
        if (!(Entries::Value(a) == Entries::Value(b))) {
          fn(Entries::Key(a), &Entries::Value(a), &Entries::Value(b));
        }
        step(A, &ac, &ae);
        step(B, &bc, &be);
      }
    }
  }

  // Chunks held (for memory estimates).
  size_t num_chunks() const { return chunks_.size(); }
  // Entry capacity summed over the chunks.
  size_t capacity() const {
    size_t n = 0;
    for (const ChunkPtr& c : chunks_) n += c->capacity();
    return n;
  }

 private:
  static typename Chunk::const_iterator LowerBound(const Chunk& ch, const K& key) {
    return std::lower_bound(ch.begin(), ch.end(), key,
                            [](const value_type& v, const K& k) { return Entries::Key(v) < k; });
  }

  // The chunk that holds or would hold `key` for a lookup: the last chunk
  // whose first key <= key; chunks_.size() if key precedes every chunk
  // (then it is absent) or the map is empty.
  size_t ChunkFor(const K& key) const {
    auto it = std::upper_bound(chunks_.begin(), chunks_.end(), key,
                               [](const K& k, const ChunkPtr& c) { return k < Entries::Key(c->front()); });
    if (it == chunks_.begin()) return chunks_.size();
    return static_cast<size_t>(it - chunks_.begin()) - 1;
  }

  // Chunk c, copied first unless this map is its only holder.
  Chunk& Own(size_t c) {
    if (chunks_[c].use_count() != 1) {
      auto copy = std::make_shared<Chunk>();
      copy->reserve(std::min(kMaxChunk, chunks_[c]->size() + 1));
      copy->assign(chunks_[c]->begin(), chunks_[c]->end());
      chunks_[c] = std::move(copy);
    }
    return *chunks_[c];
  }

  template <typename VV>
  std::pair<const_iterator, bool> Insert(const K& key, VV&& value, bool assign) {
    if (chunks_.empty()) {
      auto ch = std::make_shared<Chunk>();
      ch->push_back(Entries::Make(key, std::forward<VV>(value)));
      chunks_.push_back(std::move(ch));
      size_ = 1;
      return {const_iterator(&chunks_, 0, 0), true};
    }
    size_t c = ChunkFor(key);
    if (c == chunks_.size()) c = 0;  // before every chunk: the first one takes it
    {
      const Chunk& ch = *chunks_[c];
      auto it = LowerBound(ch, key);
      const size_t e = static_cast<size_t>(it - ch.begin());
      if (it != ch.end() && Entries::Key(*it) == key) {
        if (assign) Entries::Value(Own(c)[e]) = std::forward<VV>(value);
        return {const_iterator(&chunks_, c, e), false};
      }
    }
    Chunk& own = Own(c);
    auto pos = LowerBound(own, key);
    size_t e = static_cast<size_t>(pos - own.begin());
    own.insert(own.begin() + static_cast<std::ptrdiff_t>(e),
               Entries::Make(key, std::forward<VV>(value)));
    ++size_;
    if (own.size() > kMaxChunk) {
      // Split in halves; appends (ids only grow) leave the first half full.
      const size_t half = own.size() / 2;
      auto tail = std::make_shared<Chunk>();
      tail->reserve(kMaxChunk);
      tail->assign(std::make_move_iterator(own.begin() + static_cast<std::ptrdiff_t>(half)),
                   std::make_move_iterator(own.end()));
      own.erase(own.begin() + static_cast<std::ptrdiff_t>(half), own.end());
      own.shrink_to_fit();
      chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(c) + 1, std::move(tail));
      if (e >= half) {
        ++c;
        e -= half;
      }
    }
    return {const_iterator(&chunks_, c, e), true};
  }

  std::vector<ChunkPtr> chunks_;
  size_t size_ = 0;
};

}  // namespace ics

// Data ownership: which directories a drop may delete, so that dropping one
// object never removes data another object still points to. One rule for
// every path that deletes data (DROP TABLE / PARTITION / DATABASE through
// the CatalogService, partition batches of the metastore services, and the
// HMS endpoint's drops with deleteData):
//
//   A candidate directory C (the dropped object's location) is deleted only
//   when no location that remains in the metastore is C itself, lies inside
//   C, or contains C; except the dropped object's own container (its table's
//   directory for a partition), which may contain C but must not be C or lie
//   inside it.
//
// So a partition whose LOCATION is its table's directory (or the warehouse,
// or another table's directory) is dropped as metadata only; a partition
// directory shared by two partitions survives the drop of one of them; a
// table created inside another table's directory keeps its data when the
// outer table is dropped. What is kept is reported, and the DDL says so.
//
// Locations are compared after lexical normalization (file: prefixes and
// trailing slashes dropped, "." and ".." resolved); symlinks are the file
// system layer's concern (loader/confined_file_system.h).
//
// Cost: TableLocations reads every table of the metastore (one GetTable per
// table); the plans ask for it only when a drop could delete something.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <vector>

#include "common/util/result.h"

namespace ics::catalog {

class Metastore;

// "/a/b" from "file:///a/b/" etc.; "" for a location that is not an
// absolute local path.
std::string ComparableLocation(const std::string& location);

// Whether `path` is `dir` or lies inside it (both comparable locations).
bool PathWithin(const std::string& path, const std::string& dir);

struct DataRemovalPlan {
  std::vector<std::string> deletable;  // comparable locations, safe to delete
  std::vector<std::string> kept;       // candidates still in use (or unusable)
};

// Applies the rule above. `containers` are locations that may contain a
// candidate (e.g. the table directory of dropped partitions); `remaining`
// are the locations of every object that stays (other partitions of the
// table, other tables). Duplicate candidates are planned once.
DataRemovalPlan PlanDataRemoval(const std::vector<std::string>& candidates,
                                const std::vector<std::string>& containers,
                                const std::vector<std::string>& remaining);

// The location of every table in the metastore except db.table (pass empty
// names to skip none); tables without a location are left out.
[[nodiscard]] Result<std::vector<std::string>> TableLocations(Metastore* metastore,
                                                              const std::string& skip_db,
                                                              const std::string& skip_table);

// The plan for dropping partitions of db.table (already committed): the
// candidates are the dropped partitions' locations, the table's location
// is their container, and the table's remaining partitions and every other
// table stay.
[[nodiscard]] Result<DataRemovalPlan> PlanPartitionDataRemoval(
    Metastore* metastore, const std::string& db, const std::string& table,
    const std::string& table_location, const std::vector<std::string>& dropped,
    const std::vector<std::string>& remaining_partitions);

// The plan for dropping tables or a database (already committed): every
// table still in the metastore stays.
[[nodiscard]] Result<DataRemovalPlan> PlanTableDataRemoval(
    Metastore* metastore, const std::vector<std::string>& candidates);

// " (kept, still in use: /a, /b)" for a plan with kept directories, else "".
std::string KeptDataNote(const DataRemovalPlan& plan);

}  // namespace ics::catalog

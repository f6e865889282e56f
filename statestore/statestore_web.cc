#include "statestore/statestore_web.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace ics::statestore {

namespace {

using Json = nlohmann::ordered_json;
using metrics::MetricType;
using metrics::Sample;

// Bytes as Impala's pretty printer shows them: "0", else two decimals and
// the largest unit that fits (B, KB, MB, GB; 1024-based).
std::string HumanBytes(int64_t bytes) {
  if (bytes == 0) return "0";
  const double v = static_cast<double>(bytes);
  const double a = v < 0 ? -v : v;
  const char* unit = "B";
  double out = v;
  if (a >= 1024.0 * 1024 * 1024) {
    unit = "GB";
    out = v / (1024.0 * 1024 * 1024);
  } else if (a >= 1024.0 * 1024) {
    unit = "MB";
    out = v / (1024.0 * 1024);
  } else if (a >= 1024.0) {
    unit = "KB";
    out = v / 1024.0;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.2f %s", out, unit);
  return buf;
}

// JSON field names follow Impala's statestore pages (topic_id, num_entries,
// version, key_size[_bytes], value_size[_bytes], total_size[_bytes],
// prioritized, oldest_version, oldest_id); the rest are this statestore's own.
Status TopicsPage(const Statestore* ss, Json* doc) {
  const std::vector<TopicStats> topics = ss->Topics();
  struct Oldest {
    int64_t version = 0;
    std::string id;
    bool found = false;
  };
  std::map<std::string, int> subscribers;
  std::map<std::string, Oldest> oldest;  // lowest processed version over every subscriber
  for (const SubscriberInfo& s : ss->Subscribers()) {
    for (const auto& t : s.topics) {
      ++subscribers[t.topic];
      Oldest& o = oldest[t.topic];
      if (!o.found || t.last_version < o.version) o = {t.last_version, s.id, true};
    }
  }
  Json rows = Json::array();
  for (const TopicStats& t : topics) {
    const Oldest& o = oldest[t.name];
    rows.push_back({{"topic_id", t.name},
                    {"num_entries", t.num_entries},
                    {"version", t.last_version},
                    {"key_size", HumanBytes(t.key_bytes)},
                    {"value_size", HumanBytes(t.value_bytes)},
                    {"total_size", HumanBytes(t.key_bytes + t.value_bytes)},
                    {"key_size_bytes", t.key_bytes},
                    {"value_size_bytes", t.value_bytes},
                    {"total_size_bytes", t.key_bytes + t.value_bytes},
                    {"prioritized", false},  // no topic here has its own update pool
                    {"oldest_version", o.version},
                    {"oldest_id", o.id},
                    {"tombstones", t.num_tombstones},
                    {"oldest_retained_version", t.oldest_version},
                    {"history_floor", t.history_floor},
                    {"min_subscriber_version", ss->MinSubscriberTopicVersion(t.name)},
                    {"subscribers", subscribers[t.name]}});
  }
  (*doc)["num_topics"] = rows.size();
  (*doc)["topics"] = std::move(rows);
  return Status::OK();
}

// Impala's names: id, address, num_topics, num_priority_topics, num_transient,
// registration_id, secs_since_heartbeat (text, 3 decimals), subscriber_type.
Status SubscribersPage(const Statestore* ss, const web::WebRequest& req, Json* doc) {
  const bool filtered = req.Has("topic");
  const std::string topic = req.Param("topic");
  if (filtered) {
    bool known = false;
    for (const TopicStats& t : ss->Topics()) known = known || t.name == topic;
    if (!known) return Status::NotFound("no topic '" + topic + "'");
  }
  std::vector<SubscriberInfo> subs = ss->Subscribers();
  Json rows = Json::array();
  for (const SubscriberInfo& s : subs) {
    Json topics = Json::array();
    bool match = !filtered;
    for (const auto& t : s.topics) {
      match = match || t.topic == topic;
      topics.push_back({{"topic", t.topic},
                        {"last_version", t.last_version},
                        {"acked_version", t.acked_version},
                        {"filter_prefix", t.filter_prefix},
                        {"transient", t.is_transient},
                        {"min_on_request", t.min_on_request},
                        {"min_wanted", t.min_wanted}});
    }
    if (!match) continue;
    char secs[32];
    std::snprintf(secs, sizeof(secs), "%.3f", s.seconds_since_heartbeat);
    rows.push_back({{"id", s.id},
                    {"address", s.address},
                    {"num_topics", s.topics.size()},
                    {"num_priority_topics", 0},
                    {"num_transient", s.num_transient},
                    {"registration_id", s.registration_id},
                    {"secs_since_heartbeat", secs},
                    {"subscriber_type", s.subscriber_type},
                    {"seconds_since_heartbeat", s.seconds_since_heartbeat},
                    {"consecutive_heartbeat_failures", s.consecutive_heartbeat_failures},
                    {"unresponsive", s.unresponsive},
                    {"heartbeat_failures", s.heartbeat_failures},
                    {"update_failures", s.update_failures},
                    {"updates_sent", s.updates_sent},
                    {"seconds_since_registration", s.seconds_since_registration},
                    {"topics", std::move(topics)}});
  }
  if (filtered) (*doc)["topic"] = topic;
  (*doc)["num_subscribers"] = rows.size();
  (*doc)["subscribers"] = std::move(rows);
  return Status::OK();
}

// One per-topic sample family from the topic figures.
void AddTopicFamily(metrics::MetricRegistry* r, const Statestore* ss, const std::string& name,
                    const std::string& help, int64_t TopicStats::*field) {
  r->AddCallbackFamily(name, help, MetricType::kGauge, [ss, field] {
    std::vector<Sample> out;
    for (const TopicStats& t : ss->Topics()) {
      out.push_back({{{"topic", t.name}}, static_cast<double>(t.*field)});
    }
    return out;
  });
}

}  // namespace

void RegisterStatestorePages(web::WebServer* server, const Statestore* ss) {
  web::PageOptions topics;
  topics.links = {{"topic_id", "/subscribers?topic={topic_id}"}};
  server->RegisterPage(
      "/topics", "Topics",
      [ss](const web::WebRequest&, Json* doc) { return TopicsPage(ss, doc); }, topics);
  web::PageOptions subs;
  subs.params = {"topic"};
  subs.links = {{"topic", "/subscribers?topic={topic}"}};
  server->RegisterPage(
      "/subscribers", "Subscribers",
      [ss](const web::WebRequest& req, Json* doc) { return SubscribersPage(ss, req, doc); }, subs);
}

void RegisterStatestoreMetrics(metrics::MetricRegistry* r, const Statestore* ss) {
  struct CounterDef {
    const char* name;
    const char* help;
    int64_t StatestoreCounters::*field;
  };
  static const CounterDef kCounters[] = {
      {"statestore_updates_sent_total",
       "UpdateState RPCs answered successfully, and UpdateStateOneway updates sent.",
       &StatestoreCounters::updates_sent},
      {"statestore_oneway_updates_sent_total",
       "UpdateStateOneway updates written to their subscriber's connection.",
       &StatestoreCounters::oneway_updates_sent},
      {"statestore_oneway_resends_total",
       "Topic bases reset because a subscriber could not apply a oneway update.",
       &StatestoreCounters::oneway_resends},
      {"statestore_update_failures_total", "UpdateState RPCs that failed or returned an error.",
       &StatestoreCounters::update_failures},
      {"statestore_heartbeats_sent_total", "Heartbeat RPCs sent.",
       &StatestoreCounters::heartbeats_sent},
      {"statestore_heartbeat_failures_total", "Heartbeat RPCs that failed.",
       &StatestoreCounters::heartbeat_failures},
      {"statestore_subscribers_failed_total",
       "Registrations ended by consecutive heartbeat failures.",
       &StatestoreCounters::subscribers_failed},
      {"statestore_tombstones_collected_total", "Deleted topic entries garbage-collected.",
       &StatestoreCounters::tombstones_collected},
      {"statestore_registrations_total", "Successful RegisterSubscriber calls.",
       &StatestoreCounters::registrations},
      {"statestore_registrations_refused_total",
       "RegisterSubscriber calls refused for the peer's identity (a catalogd registration "
       "without the catalogd identity, or another identity's subscriber id).",
       &StatestoreCounters::registrations_refused},
      {"statestore_publications_refused_total",
       "Topic publications (entries or clear_topic_entries) dropped because the publishing "
       "registration may not write that topic.",
       &StatestoreCounters::publications_refused},
      {"statestore_catalogd_designations_total",
       "catalogd HA: designations of an active catalogd (the first one and each failover).",
       &StatestoreCounters::catalogd_designations},
      {"statestore_catalogd_updates_sent_total", "catalogd HA: UpdateCatalogd RPCs sent.",
       &StatestoreCounters::catalogd_updates_sent},
      {"statestore_role_updates_sent_total",
       "statestored HA: UpdateStatestoredRole RPCs sent after this statestore became active.",
       &StatestoreCounters::role_updates_sent},
      {"statestore_activations_total",
       "statestored HA: times this statestore became the active one.",
       &StatestoreCounters::activations},
      {"statestore_rpcs_cut_at_deadline_total",
       "UpdateState/Heartbeat RPCs interrupted at their hard deadline.",
       &StatestoreCounters::rpcs_cut_at_deadline},
  };
  for (const CounterDef& c : kCounters) {
    const auto field = c.field;
    r->AddCallbackCounter(c.name, c.help, [ss, field] {
      return static_cast<double>(ss->Counters().*field);
    });
  }
  r->AddCallbackGauge("statestore_subscribers", "Current registrations.", [ss] {
    return static_cast<double>(ss->Subscribers().size());
  });
  r->AddCallbackGauge("statestore_is_active",
                      "statestored HA: 1 while this statestore is the active one (always 1 "
                      "without HA), 0 while it is the standby.",
                      [ss] { return ss->is_active() ? 1.0 : 0.0; });
  r->AddCallbackGauge("statestore_active_catalogd_version",
                      "catalogd HA: version of the current active-catalogd designation (0: none).",
                      [ss] {
                        auto a = ss->active_catalogd();
                        return a ? static_cast<double>(a->version) : 0.0;
                      });
  r->AddCallbackGauge("statestore_topics", "Topics known to the broker.", [ss] {
    return static_cast<double>(ss->Topics().size());
  });
  r->AddCallbackGauge("statestore_max_seconds_since_heartbeat",
                      "Longest time since a current subscriber's last successful heartbeat.",
                      [ss] {
                        double worst = 0;
                        for (const auto& s : ss->Subscribers()) {
                          worst = std::max(worst, s.seconds_since_heartbeat);
                        }
                        return worst;
                      });
  AddTopicFamily(r, ss, "statestore_topic_entries", "Live entries per topic.",
                 &TopicStats::num_entries);
  AddTopicFamily(r, ss, "statestore_topic_tombstones", "Retained deletions per topic.",
                 &TopicStats::num_tombstones);
  AddTopicFamily(r, ss, "statestore_topic_key_bytes", "Bytes of keys per topic.",
                 &TopicStats::key_bytes);
  AddTopicFamily(r, ss, "statestore_topic_value_bytes", "Bytes of values per topic.",
                 &TopicStats::value_bytes);
  AddTopicFamily(r, ss, "statestore_topic_version", "Current version per topic.",
                 &TopicStats::last_version);
  r->AddCallbackFamily("statestore_topic_min_subscriber_version",
                       "Lowest version every subscriber of the topic has processed.",
                       MetricType::kGauge, [ss] {
                         std::vector<Sample> out;
                         for (const TopicStats& t : ss->Topics()) {
                           out.push_back({{{"topic", t.name}},
                                          static_cast<double>(ss->MinSubscriberTopicVersion(t.name))});
                         }
                         return out;
                       });
}

}  // namespace ics::statestore

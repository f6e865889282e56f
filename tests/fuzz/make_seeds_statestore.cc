// Seeds of the statestore RPC targets: statestore_service_fuzz,
// statestore_ha_fuzz and subscriber_fuzz (see make_seeds.h).
#include <string>

#include "CatalogService_types.h"
#include "StatestoreHaService.h"
#include "StatestoreService.h"
#include "StatestoreSubscriber.h"
#include "common/codec/catalog_topic.h"
#include "tests/fuzz/fuzz_stacks.h"
#include "tests/fuzz/make_seeds.h"

namespace ics::fuzz {
namespace {

impala::TRegisterSubscriberRequest Registration(const std::string& id) {
  impala::TRegisterSubscriberRequest r;
  r.subscriber_id = id;
  r.subscriber_location.hostname = "127.0.0.1";
  r.subscriber_location.port = 23999;
  impala::TTopicRegistration t;
  t.topic_name = ics::kCatalogTopic;
  t.is_transient = false;
  t.populate_min_subscriber_topic_version = true;
  t.__set_filter_prefix("1:");
  r.topic_registrations = {t};
  r.__set_subscriber_type(impala::TStatestoreSubscriberType::COORDINATOR);
  return r;
}

// Registration(id) plus a transient membership topic.
impala::TRegisterSubscriberRequest RegistrationWithMembership(const std::string& id) {
  impala::TRegisterSubscriberRequest r = Registration(id);
  impala::TTopicRegistration t;
  t.topic_name = "impala-membership";
  t.is_transient = true;
  r.topic_registrations.push_back(t);
  return r;
}

}  // namespace

void StatestoreSeeds() {
  using Client = impala::StatestoreServiceClient;
  Write("statestore_service_fuzz", "register",
        Calls<Client>([](Client& c) { c.send_RegisterSubscriber(Registration("coordinator-1")); }));
  Write("statestore_service_fuzz", "register_twice", Calls<Client>([](Client& c) {
          c.send_RegisterSubscriber(Registration("coordinator-1"));
          c.send_RegisterSubscriber(RegistrationWithMembership("coordinator-1"));
        }));
  Write("statestore_service_fuzz", "catalogd_ha_candidates", Calls<Client>([](Client& c) {
          for (int i = 0; i < 2; ++i) {
            impala::TRegisterSubscriberRequest r = Registration("catalogd-" + std::to_string(i));
            r.__set_subscriber_type(impala::TStatestoreSubscriberType::CATALOGD);
            impala::TCatalogRegistration reg;
            reg.protocol = impala::CatalogServiceVersion::V2;
            reg.address.hostname = "127.0.0.1";
            reg.address.port = 26000 + i;
            reg.__set_enable_catalogd_ha(true);
            reg.__set_force_catalogd_active(i == 1);
            reg.__set_registration_time(1000 + i);
            r.__set_catalogd_registration(reg);
            r.__set_subscribe_catalogd_change(true);
            c.send_RegisterSubscriber(r);
          }
        }));
  // A zero registration id stands for the last one registered (see the
  // target's adapter).
  Write("statestore_service_fuzz", "register_then_push", Calls<Client>([](Client& c) {
          c.send_RegisterSubscriber(RegistrationWithMembership("pusher"));
          impala::TTopicDelta d;
          d.topic_name = "impala-membership";
          d.is_delta = true;
          impala::TTopicItem item;
          item.key = "pusher";
          item.value = "member";
          d.topic_entries = {item};
          impala::TRequestTopicUpdateRequest u;
          u.__set_topic_updates({d});
          c.send_RequestTopicUpdate(u);
          d.__set_clear_topic_entries(true);
          d.topic_name = ics::kCatalogTopic;  // refused: not catalogd's registration
          u.__set_topic_updates({d});
          c.send_RequestTopicUpdate(u);
        }));
  // Resends of oneway updates (field 7): one the broker checks and takes or
  // ignores, one it refuses (from_version past the rejected version).
  Write("statestore_service_fuzz", "register_then_resend", Calls<Client>([](Client& c) {
          c.send_RegisterSubscriber(RegistrationWithMembership("resender"));
          impala::TTopicResend r;
          r.topic_name = "impala-membership";
          r.from_version = 0;
          r.rejected_to_version = 0;
          impala::TRequestTopicUpdateRequest u;
          u.__set_resend_from({r});
          c.send_RequestTopicUpdate(u);
          r.from_version = 5;
          u.__set_resend_from({r});
          c.send_RequestTopicUpdate(u);
        }));
  Write("statestore_service_fuzz", "version_and_update", Calls<Client>([](Client& c) {
          c.send_GetProtocolVersion(impala::TGetProtocolVersionRequest());
          impala::TRequestTopicUpdateRequest u;
          u.registration_id.hi = 1;
          u.registration_id.lo = 2;
          c.send_RequestTopicUpdate(u);
          u.__set_min_subscriber_topic_version_on_request(true);
          u.__set_min_subscriber_topic_versions_wanted({{"catalog-update", 7}});
          c.send_RequestTopicUpdate(u);
        }));
}

void StatestoreHaSeeds() {
  using Client = impala::StatestoreHaServiceClient;
  Write("statestore_ha_fuzz", "handshake_then_heartbeat", Calls<Client>([](Client& c) {
          impala::TStatestoreHaHandshakeRequest h;
          h.src_statestore_id.hi = 7;
          h.src_statestore_id.lo = 8;
          h.src_statestore_address = "127.0.0.1:24021";
          h.src_force_active = false;
          c.send_StatestoreHaHandshake(h);
          impala::TStatestoreHaHeartbeatRequest b;
          b.src_statestore_id = h.src_statestore_id;
          impala::TNetworkAddress a;
          a.hostname = "127.0.0.1";
          a.port = 26000;
          b.__set_active_catalogd_address(a);
          c.send_StatestoreHaHeartbeat(b);
        }));
  Write("statestore_ha_fuzz", "activation_versions", Calls<Client>([](Client& c) {
          // Won the handshake, then a peer with an older and one with a later
          // activation (our fields 101, 102): keep the role, then step down.
          impala::TStatestoreHaHandshakeRequest h;
          h.src_statestore_id.hi = -1;
          h.src_statestore_id.lo = -1;
          h.src_statestore_address = "127.0.0.1:24021";
          h.src_force_active = false;
          c.send_StatestoreHaHandshake(h);
          impala::TStatestoreHaHeartbeatRequest b;
          b.src_statestore_id = h.src_statestore_id;
          b.__set_active_statestored_version(1);
          c.send_StatestoreHaHeartbeat(b);
          impala::TNetworkAddress a;
          a.hostname = "127.0.0.1";
          a.port = 26001;
          b.__set_active_catalogd_address(a);
          b.__set_active_statestored_version(int64_t{1} << 42);
          b.__set_catalogd_version((int64_t{1} << 62) | 3);
          c.send_StatestoreHaHeartbeat(b);
        }));
  Write("statestore_ha_fuzz", "forced_handshake", Calls<Client>([](Client& c) {
          impala::TStatestoreHaHandshakeRequest h;
          h.src_statestore_address = "peer:24020";
          h.src_force_active = true;
          c.send_StatestoreHaHandshake(h);
        }));
}

void SubscriberSeeds(CatalogdStack& stack) {
  using Client = impala::StatestoreSubscriberClient;
  const impala::TTopicDelta full = SeedTopic(stack, catalog::TopicMode::kFull);
  const impala::TTopicDelta mixed = SeedTopic(stack, catalog::TopicMode::kMixed);
  Write("subscriber_fuzz", "full_topic", Calls<Client>([&](Client& c) {
          impala::TUpdateStateRequest req;
          req.topic_deltas = {{ics::kCatalogTopic, full}};
          c.send_UpdateState(req);
        }));
  Write("subscriber_fuzz", "mixed_delta", Calls<Client>([&](Client& c) {
          impala::TUpdateStateRequest req;
          impala::TTopicDelta delta = mixed;
          delta.is_delta = true;
          delta.__set_from_version(1);
          delta.__set_to_version(2);
          delta.__set_min_subscriber_topic_version(1);
          // The invalidations ("2:") and one deleted full object ("1:").
          std::vector<impala::TTopicItem> kept;
          for (const auto& item : mixed.topic_entries) {
            if (item.key.compare(0, 2, "2:") == 0) kept.push_back(item);
          }
          if (const impala::TTopicItem* db = FindEntry(mixed, "1:DATABASE:")) {
            kept.push_back(*db);
            kept.back().deleted = true;
          }
          delta.topic_entries = std::move(kept);
          req.topic_deltas = {{ics::kCatalogTopic, delta}};
          req.__set_registration_id(impala::TUniqueId());
          c.send_UpdateState(req);
        }));
  Write("subscriber_fuzz", "oneway_full_topic", Calls<Client>([&](Client& c) {
          impala::TUpdateStateRequest req;
          req.topic_deltas = {{ics::kCatalogTopic, full}};
          c.send_UpdateStateOneway(req);
        }));
  Write("subscriber_fuzz", "heartbeat", Calls<Client>([](Client& c) {
          impala::THeartbeatRequest hb;
          hb.__set_request_statestore_conn_state(true);
          c.send_Heartbeat(hb);
        }));
  impala::TCatalogRegistration catalogd;
  catalogd.protocol = impala::CatalogServiceVersion::V2;
  catalogd.address.hostname = "127.0.0.1";
  catalogd.address.port = 26000;
  catalogd.__set_enable_catalogd_ha(true);
  Write("subscriber_fuzz", "update_catalogd", Calls<Client>([&](Client& c) {
          impala::TUpdateCatalogdRequest req;
          req.catalogd_version = 2;
          req.catalogd_registration = catalogd;
          c.send_UpdateCatalogd(req);
        }));
  // A statestore activated (5); an update from an older activation (3),
  // skipped, then one from a later one (7), taken.
  Write("subscriber_fuzz", "stale_activation_update", Calls<Client>([&](Client& c) {
          impala::TUpdateStatestoredRoleRequest role;
          role.active_statestored_version = 5;
          role.is_active = true;
          c.send_UpdateStatestoredRole(role);
          impala::TUpdateStateRequest req;
          req.topic_deltas = {{ics::kCatalogTopic, full}};
          req.__set_active_statestored_version(3);
          c.send_UpdateState(req);
          req.__set_active_statestored_version(7);
          c.send_UpdateState(req);
        }));
  Write("subscriber_fuzz", "update_statestored_role", Calls<Client>([&](Client& c) {
          impala::TUpdateStatestoredRoleRequest req;
          req.active_statestored_version = 3;
          req.is_active = true;
          req.__set_catalogd_version(2);
          req.__set_catalogd_registration(catalogd);
          c.send_UpdateStatestoredRole(req);
        }));
}

}  // namespace ics::fuzz

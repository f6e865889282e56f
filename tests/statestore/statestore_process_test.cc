// Multi-process statestore tests: the real statestored binary and fake
// subscriber processes (statestore_fake_subscriber, IDL-only), plus
// in-process FakeSubscribers as observers. Covers statestore restart,
// kill -9 of a subscriber and a SIGSTOP'd subscriber.
//
// Every child is started with PR_SET_PDEATHSIG and killed in TearDown, so a
// failing or crashing test leaves no processes behind.
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/external/external_process.h"
#include "tests/statestore/fake_subscriber.h"
#include "tests/util/temp_dir.h"

#ifndef ICS_STATESTORED_BIN
#error "ICS_STATESTORED_BIN must name the statestored binary"
#endif
#ifndef ICS_FAKE_SUBSCRIBER_BIN
#error "ICS_FAKE_SUBSCRIBER_BIN must name the statestore_fake_subscriber binary"
#endif

namespace ics::sstest {
namespace {

constexpr Millis kWait(8000);

using ::ics::external::ExternalProcess;
using ::ics::external::TailOfFile;

std::map<std::string, std::string> ReadStatus(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

int64_t StatusInt(const std::map<std::string, std::string>& st, const std::string& key) {
  auto it = st.find(key);
  if (it == st.end() || it->second.empty()) return -1;
  return std::stoll(it->second);
}

bool KeysContain(const std::map<std::string, std::string>& st, const std::string& topic,
                 const std::string& key) {
  auto it = st.find("topic." + topic + ".keys");
  if (it == st.end()) return false;
  std::stringstream ss(it->second);
  std::string k;
  while (std::getline(ss, k, ',')) {
    if (k == key) return true;
  }
  return false;
}

class StatestoreProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
  }

  void TearDown() override {
    for (auto& o : observers_) o->Stop();
    for (auto& c : children_) c->Kill();  // SIGKILL also ends a stopped process
    if (HasFailure()) {
      for (const auto& c : children_) {
        std::cout << "--- " << c->log_path() << " (tail)\n" << TailOfFile(c->log_path(), 30);
      }
      for (const auto& [name, path] : status_files_) {
        std::cout << "--- status of " << name << "\n" << TailOfFile(path, 30);
      }
    }
    observers_.clear();
    children_.clear();
  }

  ExternalProcess* Spawn(const std::string& binary, const std::string& name,
                         std::vector<std::string> args) {
    children_.push_back(std::make_unique<ExternalProcess>(
        name, dir_ + "/" + name + "." + std::to_string(children_.size()) + ".log", dir_));
    std::vector<std::string> argv = {binary};
    argv.insert(argv.end(), args.begin(), args.end());
    ::ics::Status started = children_.back()->Start(argv);
    if (!started.ok()) {
      ADD_FAILURE() << name << ": " << started.ToString();
      return nullptr;
    }
    return children_.back().get();
  }

  // Starts statestored on `port` (0 = any) and returns its bound port, or 0.
  int StartStatestored(int port, ExternalProcess** out) {
    const auto deadline = Clock::now() + Millis(15000);
    for (int attempt = 0; Clock::now() < deadline; ++attempt) {
      const std::string port_file = dir_ + "/statestored.port." + std::to_string(attempt);
      ExternalProcess* ss = Spawn(
          ICS_STATESTORED_BIN, "statestored",
          {"--state_store_port=" + std::to_string(port), "--port_file=" + port_file,
           "--statestore_heartbeat_frequency_ms=100", "--statestore_max_missed_heartbeats=3",
           "--statestore_heartbeat_tcp_timeout_ms=500", "--statestore_update_frequency_ms=200"});
      if (ss == nullptr) return 0;
      int bound = 0;
      const bool up = Eventually(
          [&] {
            std::ifstream in(port_file);
            return static_cast<bool>(in >> bound) && bound > 0;
          },
          Millis(10000));
      if (up && ss->IsRunning()) {
        *out = ss;
        return bound;
      }
      // The port may still be held briefly after a kill; try again.
      ss->Kill();
      if (port == 0) break;
    }
    ADD_FAILURE() << "statestored did not start on port " << port;
    return 0;
  }

  ExternalProcess* SpawnSubscriber(const std::string& id, int ss_port,
                                   std::vector<std::string> extra) {
    const std::string status = dir_ + "/" + id + ".status";
    status_files_[id] = status;
    std::vector<std::string> args = {"--statestore_port=" + std::to_string(ss_port), "--id=" + id,
                                     "--status_file=" + status};
    args.insert(args.end(), extra.begin(), extra.end());
    return Spawn(ICS_FAKE_SUBSCRIBER_BIN, id, std::move(args));
  }

  std::map<std::string, std::string> Status(const std::string& id) {
    return ReadStatus(status_files_.at(id));
  }

  FakeSubscriber* Observer(const std::string& id, int ss_port,
                           std::vector<impala::TTopicRegistration> topics) {
    FakeSubscriberOptions o;
    o.id = id;
    o.topics = std::move(topics);
    o.statestore_port = ss_port;
    observers_.push_back(std::make_unique<FakeSubscriber>(o));
    FakeSubscriber* sub = observers_.back().get();
    std::string error;
    if (!sub->Start(&error) || !sub->RegisterOk(&error)) {
      ADD_FAILURE() << "observer " << id << ": " << error;
      return nullptr;
    }
    return sub;
  }

  ::ics::testing::TempDir tmp_{"statestore_process_test"};
  std::string dir_;
  std::vector<std::unique_ptr<ExternalProcess>> children_;
  std::vector<std::unique_ptr<FakeSubscriber>> observers_;
  std::map<std::string, std::string> status_files_;
};

TEST_F(StatestoreProcessTest, RestartedStatestoreSubscribersReRegisterAndGetFullTopics) {
  ExternalProcess* ss = nullptr;
  const int port = StartStatestored(0, &ss);
  ASSERT_GT(port, 0);
  ASSERT_NE(
      SpawnSubscriber("pub", port, {"--topic=t", "--publish=t/pk=1", "--reregister_after_ms=700"}),
      nullptr);
  ASSERT_NE(SpawnSubscriber("obs", port, {"--topic=t", "--reregister_after_ms=700"}), nullptr);
  ASSERT_TRUE(Eventually([&] { return KeysContain(Status("obs"), "t", "pk"); }, kWait))
      << "observer never saw the publication";
  const std::string pub_reg = Status("pub")["registration_id"];
  const std::string obs_reg = Status("obs")["registration_id"];
  ASSERT_FALSE(pub_reg.empty());
  ASSERT_FALSE(obs_reg.empty());
  EXPECT_EQ(StatusInt(Status("obs"), "registrations"), 1);

  // Crash the statestore and start a new one on the same port.
  ss->Kill();
  ExternalProcess* ss2 = nullptr;
  ASSERT_EQ(StartStatestored(port, &ss2), port);

  // Both re-register with the new statestore (new registration ids), get a
  // full update for the new registration, and the observer has the entry
  // again (re-published into the new, initially empty, topic).
  for (const char* id : {"pub", "obs"}) {
    EXPECT_TRUE(Eventually(
        [&] {
          auto st = Status(id);
          return StatusInt(st, "registrations") >= 2 &&
                 StatusInt(st, "topic.t.full_updates_current") >= 1;
        },
        Millis(15000)))
        << id << " did not re-register and get a full update";
  }
  EXPECT_NE(Status("pub")["registration_id"], pub_reg);
  EXPECT_NE(Status("obs")["registration_id"], obs_reg);
  EXPECT_TRUE(Eventually(
      [&] {
        auto st = Status("obs");
        return KeysContain(st, "t", "pk") && StatusInt(st, "topic.t.version") >= 1;
      },
      kWait));
  // Updates keep flowing afterwards.
  const int64_t calls = StatusInt(Status("obs"), "update_calls");
  EXPECT_TRUE(
      Eventually([&] { return StatusInt(Status("obs"), "update_calls") >= calls + 3; }, kWait));
}

TEST_F(StatestoreProcessTest, KilledSubscriberProcessIsRemoved) {
  ExternalProcess* ss = nullptr;
  const int port = StartStatestored(0, &ss);
  ASSERT_GT(port, 0);
  ExternalProcess* victim =
      SpawnSubscriber("victim", port, {"--transient_topic=t", "--publish=t/vk=1"});
  ASSERT_NE(victim, nullptr);
  FakeSubscriber* o = Observer("observer", port, {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  ASSERT_TRUE(o->WaitForKey("t", "vk", kWait)) << o->Describe();

  const auto killed_at = Clock::now();
  victim->Kill();  // SIGKILL
  // Its transient entry goes once it is declared failed (3 refused heartbeats).
  EXPECT_TRUE(o->WaitForKeyGone("t", "vk", kWait)) << o->Describe();
  EXPECT_LT(SecondsSince(killed_at), 5.0);
  const size_t n = o->UpdateCount("t");
  EXPECT_TRUE(o->WaitForUpdates("t", n + 3, kWait)) << o->Describe();
}

TEST_F(StatestoreProcessTest, StoppedSubscriberIsFailedWhileOthersKeepReceiving) {
  ExternalProcess* ss = nullptr;
  const int port = StartStatestored(0, &ss);
  ASSERT_GT(port, 0);
  ExternalProcess* victim = SpawnSubscriber(
      "victim", port, {"--transient_topic=t", "--publish=t/vk=1", "--reregister_after_ms=1000"});
  ASSERT_NE(victim, nullptr);
  FakeSubscriber* o = Observer("observer", port, {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  ASSERT_TRUE(o->WaitForKey("t", "vk", kWait)) << o->Describe();

  ASSERT_TRUE(victim->Pause().ok());
  const auto stopped_at = Clock::now();
  // Declared failed: heartbeats time out (3 x (500 ms + 100 ms)).
  EXPECT_TRUE(o->WaitForKeyGone("t", "vk", kWait)) << o->Describe();
  EXPECT_LT(SecondsSince(stopped_at), 6.0);
  const size_t n = o->UpdateCount("t");
  EXPECT_TRUE(o->WaitForUpdates("t", n + 5, kWait)) << o->Describe();
  // The observer was served at the cadence throughout (200 ms; no gap close
  // to an update timeout).
  double max_gap = 0;
  Clock::time_point prev{};
  for (const auto& u : o->Updates("t")) {
    if (u.at < stopped_at) continue;
    if (prev != Clock::time_point{}) {
      max_gap = std::max(max_gap, std::chrono::duration<double>(u.at - prev).count());
    }
    prev = u.at;
  }
  EXPECT_LT(max_gap, 2.0) << "observer starved while a subscriber was stopped";

  // Resumed, the victim re-registers on its own and re-publishes.
  victim->Resume();
  EXPECT_TRUE(o->WaitForKey("t", "vk", Millis(15000))) << o->Describe();
  EXPECT_TRUE(Eventually([&] { return StatusInt(Status("victim"), "registrations") >= 2; }, kWait));
}

}  // namespace
}  // namespace ics::sstest

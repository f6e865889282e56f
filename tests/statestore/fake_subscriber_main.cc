// statestore_fake_subscriber: a FakeSubscriber (IDL-only) as its own process,
// for the multi-process statestore tests (kill -9, SIGSTOP, statestore
// restart).
//
// Flags (all --name=value):
//   --statestore_port=N          statestore port on --statestore_host (127.0.0.1)
//   --id=NAME                    subscriber id
//   --topic=NAME                 subscribe to a persistent topic (repeatable)
//   --transient_topic=NAME       subscribe to a transient topic (repeatable)
//   --publish=TOPIC/KEY=VALUE    publish after every registration (repeatable)
//   --reregister_after_ms=N      re-register when no heartbeat for N ms (default 1000)
//   --status_file=PATH           state written here (atomically) whenever it changes
//
// Status file: key=value lines: pid, port, registrations, registration_id,
// heartbeats, update_calls, and per topic T: topic.T.version, topic.T.updates,
// topic.T.full_updates_current (full updates received for the current
// registration), topic.T.keys (comma-separated).
//
// SIGTERM/SIGINT stop it cleanly.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "tests/statestore/fake_subscriber.h"

namespace {

using ics::sstest::FakeSubscriber;
using ics::sstest::FakeSubscriberOptions;

bool Flag(const std::string& arg, const std::string& name, std::string* value) {
  const std::string prefix = "--" + name + "=";
  if (arg.compare(0, prefix.size(), prefix) != 0) return false;
  *value = arg.substr(prefix.size());
  return true;
}

std::string StatusText(const FakeSubscriber& sub, const std::vector<std::string>& topics) {
  std::ostringstream out;
  auto reg = sub.registration_id();
  out << "pid=" << getpid() << "\n";
  out << "port=" << sub.port() << "\n";
  out << "registrations=" << sub.registration_count() << "\n";
  out << "registration_id=" << (reg ? ics::sstest::IdToString(*reg) : "") << "\n";
  out << "heartbeats=" << sub.HeartbeatCount() << "\n";
  out << "update_calls=" << sub.UpdateCalls() << "\n";
  for (const auto& t : topics) {
    auto updates = sub.Updates(t);
    int64_t full_current = 0;
    for (const auto& u : updates) {
      if (!u.delta.is_delta && reg && u.registration_id && *u.registration_id == *reg) {
        ++full_current;
      }
    }
    out << "topic." << t << ".version=" << sub.TopicVersion(t) << "\n";
    out << "topic." << t << ".updates=" << updates.size() << "\n";
    out << "topic." << t << ".full_updates_current=" << full_current << "\n";
    out << "topic." << t << ".keys=";
    bool first = true;
    for (const auto& [k, v] : sub.Entries(t)) {
      out << (first ? "" : ",") << k;
      first = false;
    }
    out << "\n";
  }
  return out.str();
}

bool WriteAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return false;
    out << text;
    if (!out.flush()) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  FakeSubscriberOptions opts;
  opts.reregister_after_ms = 1000;
  std::string status_file;
  std::vector<std::string> topic_names;
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> publications;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string v;
    if (Flag(arg, "statestore_port", &v)) {
      opts.statestore_port = std::stoi(v);
    } else if (Flag(arg, "statestore_host", &v)) {
      opts.statestore_host = v;
    } else if (Flag(arg, "id", &v)) {
      opts.id = v;
    } else if (Flag(arg, "topic", &v)) {
      opts.topics.push_back(ics::sstest::TopicReg(v, /*transient=*/false));
      topic_names.push_back(v);
    } else if (Flag(arg, "transient_topic", &v)) {
      opts.topics.push_back(ics::sstest::TopicReg(v, /*transient=*/true));
      topic_names.push_back(v);
    } else if (Flag(arg, "publish", &v)) {
      const size_t slash = v.find('/');
      const size_t eq = v.find('=', slash == std::string::npos ? 0 : slash);
      if (slash == std::string::npos || eq == std::string::npos) {
        std::cerr << "bad --publish (want TOPIC/KEY=VALUE): " << v << "\n";
        return 2;
      }
      publications.push_back(
          {v.substr(0, slash), {v.substr(slash + 1, eq - slash - 1), v.substr(eq + 1)}});
    } else if (Flag(arg, "reregister_after_ms", &v)) {
      opts.reregister_after_ms = std::stoi(v);
    } else if (Flag(arg, "status_file", &v)) {
      status_file = v;
    } else {
      std::cerr << "unknown flag: " << arg << "\n";
      return 2;
    }
  }
  if (opts.statestore_port <= 0 || opts.id.empty()) {
    std::cerr << "--statestore_port and --id are required\n";
    return 2;
  }

  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // before any thread starts
  signal(SIGPIPE, SIG_IGN);

  FakeSubscriber sub(opts);
  for (const auto& [topic, kv] : publications) {
    sub.PublishSticky(topic, {ics::sstest::Item(kv.first, kv.second)});
  }
  std::string error;
  if (!sub.Start(&error)) {
    std::cerr << "cannot start: " << error << "\n";
    return 1;
  }
  // A failed first registration is retried by the re-registration monitor.
  if (!sub.RegisterOk(&error)) std::cerr << "first registration failed: " << error << "\n";

  std::string last_written;
  while (true) {
    if (!status_file.empty()) {
      std::string text = StatusText(sub, topic_names);
      if (text != last_written && WriteAtomically(status_file, text)) last_written = text;
    }
    timespec tick{0, 50 * 1000 * 1000};
    const int sig = sigtimedwait(&stop_signals, nullptr, &tick);
    if (sig == SIGTERM || sig == SIGINT) break;
  }
  sub.Stop();
  return 0;
}

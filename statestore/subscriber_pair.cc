#include "statestore/subscriber_pair.h"

#include <utility>

namespace ics::statestore {

SubscriberPair::SubscriberPair(StatestoreSubscriberOptions options,
                               const std::string& second_host, int second_port) {
  first_ = std::make_unique<StatestoreSubscriber>(options);
  if (second_port > 0) {
    options.statestore_host = second_host;
    options.statestore_port = second_port;
    options.port = 0;
    second_ = std::make_unique<StatestoreSubscriber>(std::move(options));
  }
}

SubscriberPair::~SubscriberPair() { Stop(); }

Status SubscriberPair::AddTopic(TopicSubscription topic, const Callback& callback) {
  if (second_ != nullptr) {
    TopicSubscription for_second = topic;
    for_second.callback = [callback](const impala::TTopicDelta& d,
                                     std::vector<impala::TTopicDelta>* out) {
      callback(1, d, out);
    };
    ICS_RETURN_IF_ERROR(second_->AddTopic(std::move(for_second)));
  }
  topic.callback = [callback](const impala::TTopicDelta& d,
                              std::vector<impala::TTopicDelta>* out) { callback(0, d, out); };
  return first_->AddTopic(std::move(topic));
}

Status SubscriberPair::Start() {
  if (second_ != nullptr) ICS_RETURN_IF_ERROR(second_->Start());
  return first_->Start();
}

void SubscriberPair::Stop() {
  if (first_ != nullptr) first_->Stop();
  if (second_ != nullptr) second_->Stop();
}

void SubscriberPair::RequestTopicUpdate() {
  first_->RequestTopicUpdate();
  if (second_ != nullptr) second_->RequestTopicUpdate();
}

}  // namespace ics::statestore

package io.github.idempotency.sample.ledger;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.config.ContainerCustomizer;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.core.NestedExceptionUtils;

/**
 * Watches every delivery the listener container hands to the ledger listener, and on request
 * loses the acknowledgement of a message's first delivery after the listener has handled it, as a
 * dropped connection would, so that the broker delivers the message again.
 */
public class DeliveryProbe implements ContainerCustomizer<SimpleMessageListenerContainer> {

	private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

	private final Set<String> ackToLose = ConcurrentHashMap.newKeySet();

	@Override
	public void configure(SimpleMessageListenerContainer container) {
		container.setAdviceChain(new Advice());
	}

	/**
	 * Lose the acknowledgement of the next delivery of a message.
	 * @param messageId the message id
	 */
	public void loseNextAck(String messageId) {
		this.ackToLose.add(messageId);
	}

	/**
	 * Return the deliveries of a message so far.
	 * @param messageId the message id
	 * @return the deliveries, in the order the listener finished them
	 */
	public List<Delivery> deliveries(String messageId) {
		return this.deliveries.stream().filter((delivery) -> delivery.messageId().equals(messageId)).toList();
	}

	/**
	 * Forget every delivery.
	 */
	public void reset() {
		this.deliveries.clear();
		this.ackToLose.clear();
	}

	/**
	 * One delivery of a message and how the listener ended it.
	 *
	 * @param messageId the message id
	 * @param redelivered whether the broker flagged the delivery as a redelivery
	 * @param outcome {@code acked}, {@code ack-lost} or the simple name of the root cause of the
	 * listener's exception
	 */
	public record Delivery(String messageId, boolean redelivered, String outcome) {

	}

	private final class Advice implements MethodInterceptor {

		@Override
		public Object invoke(MethodInvocation invocation) throws Throwable {
			Message message = (Message) invocation.getArguments()[1];
			String messageId = String.valueOf(message.getMessageProperties().getMessageId());
			boolean redelivered = Boolean.TRUE.equals(message.getMessageProperties().isRedelivered());
			Object result;
			try {
				result = invocation.proceed();
			}
			catch (Throwable ex) {
				record(messageId, redelivered, NestedExceptionUtils.getMostSpecificCause(ex).getClass().getSimpleName());
				throw ex;
			}
			if (DeliveryProbe.this.ackToLose.remove(messageId)) {
				record(messageId, redelivered, "ack-lost");
				throw new IllegalStateException("The acknowledgement of " + messageId + " was lost");
			}
			record(messageId, redelivered, "acked");
			return result;
		}

		private void record(String messageId, boolean redelivered, String outcome) {
			DeliveryProbe.this.deliveries.add(new Delivery(messageId, redelivered, outcome));
		}

	}

}

package io.github.idempotency.engine;

import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.rabbitmq.client.Channel;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.annotation.EnableRabbit;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.amqp.support.converter.JacksonJsonMessageConverter;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.messaging.handler.annotation.Header;

import io.github.idempotency.annotation.Idempotent;

/**
 * A non-web application whose {@code @Idempotent} RabbitMQ listener takes, besides its payload,
 * the channel, the delivery tag and the redelivered flag, on the local broker; its messages are
 * acknowledged after the listener returns, and a consumer can be killed between the two. Every
 * run of the listener is a row in {@code effect}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableRabbit
class RabbitTransferApplication {

	static final String QUEUE = "transfers.test." + UUID.randomUUID();

	@Bean
	CachingConnectionFactory rabbitConnectionFactory() {
		CachingConnectionFactory connectionFactory = new CachingConnectionFactory("127.0.0.1", 5672);
		connectionFactory.setUsername("guest");
		connectionFactory.setPassword("guest");
		return connectionFactory;
	}

	@Bean
	RabbitAdmin rabbitAdmin(CachingConnectionFactory connectionFactory) {
		return new RabbitAdmin(connectionFactory);
	}

	@Bean
	Queue transfersQueue() {
		// Not auto-delete, which would drop the queue and its message with the killed consumer;
		// it expires a minute after the test run stops using it.
		return QueueBuilder.nonDurable(QUEUE).expires(60_000).build();
	}

	@Bean
	JacksonJsonMessageConverter jsonMessageConverter() {
		return new JacksonJsonMessageConverter();
	}

	@Bean
	RabbitTemplate rabbitTemplate(CachingConnectionFactory connectionFactory, JacksonJsonMessageConverter converter) {
		RabbitTemplate template = new RabbitTemplate(connectionFactory);
		template.setMessageConverter(converter);
		return template;
	}

	@Bean
	Acknowledger acknowledger() {
		return new Acknowledger();
	}

	@Bean
	SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(CachingConnectionFactory connectionFactory,
			JacksonJsonMessageConverter converter, Acknowledger acknowledger) {
		SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
		factory.setConnectionFactory(connectionFactory);
		factory.setMessageConverter(converter);
		factory.setAcknowledgeMode(AcknowledgeMode.MANUAL);
		factory.setConcurrentConsumers(1);
		factory.setPrefetchCount(1);
		factory.setRecoveryInterval(100L);
		factory.setAdviceChain(acknowledger);
		return factory;
	}

	@Bean
	TransferListener transferListener(JdbcTemplate jdbc) {
		return new TransferListener(jdbc);
	}

	@Bean
	QueueCleanup queueCleanup(RabbitAdmin admin) {
		return new QueueCleanup(admin);
	}

	record Transfer(String id, long amount) {
	}

	/**
	 * Books transfers; it takes the transport's channel, delivery tag and redelivered flag as
	 * listeners that acknowledge their messages themselves do.
	 */
	static class TransferListener {

		private final JdbcTemplate jdbc;

		TransferListener(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@RabbitListener(id = "transfers", queues = "#{transfersQueue.name}")
		@Idempotent(operation = "transfer", key = "'transfer:' + #transfer.id()")
		public void onTransfer(Transfer transfer, Channel channel, @Header(AmqpHeaders.DELIVERY_TAG) long deliveryTag,
				@Header(AmqpHeaders.REDELIVERED) boolean redelivered) {
			this.jdbc.update("INSERT INTO effect (endpoint, detail) VALUES (?, ?)", "transfer", transfer.id());
		}

	}

	/**
	 * Acknowledges each message once its listener has returned, replayed or run, as a listener
	 * with manual acknowledgement must outside its {@code @Idempotent} method; rejects one whose
	 * listener failed; and on request kills the consumer of a message after its listener has
	 * returned and before the acknowledgement, as a crash would, so that the broker delivers it
	 * again to the next consumer.
	 */
	static class Acknowledger implements MethodInterceptor {

		private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

		private final Set<String> toKill = ConcurrentHashMap.newKeySet();

		void killConsumerAfter(String messageId) {
			this.toKill.add(messageId);
		}

		List<Delivery> deliveries(String messageId) {
			return this.deliveries.stream().filter((delivery) -> delivery.messageId().equals(messageId)).toList();
		}

		@Override
		public Object invoke(MethodInvocation invocation) throws Throwable {
			Channel channel = (Channel) invocation.getArguments()[0];
			Message message = (Message) invocation.getArguments()[1];
			String messageId = String.valueOf(message.getMessageProperties().getMessageId());
			long deliveryTag = message.getMessageProperties().getDeliveryTag();
			boolean redelivered = Boolean.TRUE.equals(message.getMessageProperties().isRedelivered());
			Object result;
			try {
				result = invocation.proceed();
			}
			catch (Throwable ex) {
				channel.basicReject(deliveryTag, false);
				record(messageId, deliveryTag, redelivered,
						NestedExceptionUtils.getMostSpecificCause(ex).getClass().getSimpleName());
				return null;
			}
			if (this.toKill.remove(messageId)) {
				record(messageId, deliveryTag, redelivered, "consumer-killed");
				// The connection goes away without a word, with the unacknowledged message.
				channel.getConnection().abort();
				return result;
			}
			channel.basicAck(deliveryTag, false);
			record(messageId, deliveryTag, redelivered, "acked");
			return result;
		}

		private void record(String messageId, long deliveryTag, boolean redelivered, String outcome) {
			this.deliveries.add(new Delivery(messageId, deliveryTag, redelivered, outcome));
		}

	}

	/**
	 * One delivery of a message and how it ended.
	 *
	 * @param messageId the message id
	 * @param deliveryTag its delivery tag on its consumer's channel
	 * @param redelivered whether the broker flagged it as a redelivery
	 * @param outcome {@code acked}, {@code consumer-killed}, or the simple name of the root
	 * cause of the listener's exception
	 */
	record Delivery(String messageId, long deliveryTag, boolean redelivered, String outcome) {
	}

	/**
	 * Deletes the test run's queue from the broker when the context closes.
	 */
	static class QueueCleanup implements DisposableBean {

		private final RabbitAdmin admin;

		QueueCleanup(RabbitAdmin admin) {
			this.admin = admin;
		}

		@Override
		public void destroy() {
			this.admin.deleteQueue(QUEUE);
		}

	}

}

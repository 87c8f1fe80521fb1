package io.github.idempotency.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.annotation.KafkaHandler;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.Message;
import org.springframework.messaging.handler.annotation.Header;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code @Idempotent} Kafka listener that could never find its key is refused at start-up with
 * the ways to give it one (found by adopting the starter into a real application whose listener
 * takes the event alone); every listener that can find one starts.
 */
class KafkaListenerKeysCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyKafkaAutoConfiguration.class))
		.withPropertyValues("idempotency.purge.cron=-");

	@Test
	void aListenerThatTakesTheEventAloneWithoutAKeyExpressionFailsTheStartWithWhatToDo() {
		this.runner.withBean(EventOnlyListener.class).withBean(KeylessHandlers.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(KafkaListenerKeyMissingException.class);
			FailureAnalysis analysis = new KafkaListenerKeyMissingFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains(EventOnlyListener.class.getName() + ".onPriceChanged",
					KeylessHandlers.class.getName() + ".onEvent", "every record they receive would be refused");
			assertThat(analysis.getAction()).contains("@Idempotent(key = ", "@Header(\"Idempotency-Key\")",
					"ConsumerRecord", "required = false");
		});
	}

	@Test
	void listenersThatCanFindTheirKeyStart() {
		this.runner.withBean(KeyedListeners.class).run((context) -> assertThat(context).hasNotFailed());
	}

	record PriceChanged(String productCode, String price) {
	}

	static class EventOnlyListener {

		@KafkaListener(topics = "prices")
		@Idempotent(operation = "price-changed")
		public void onPriceChanged(PriceChanged event) {
		}

	}

	@KafkaListener(topics = "events")
	static class KeylessHandlers {

		@KafkaHandler
		@Idempotent(operation = "event")
		public void onEvent(PriceChanged event) {
		}

	}

	static class KeyedListeners {

		@KafkaListener(topics = "a")
		@Idempotent(operation = "a", key = "#event.productCode()")
		public void byExpression(PriceChanged event) {
		}

		@KafkaListener(topics = "b")
		@Idempotent(operation = "b")
		public void byHeader(PriceChanged event, @Header("Idempotency-Key") String key) {
		}

		@KafkaListener(topics = "c")
		@Idempotent(operation = "c")
		public void byRecord(ConsumerRecord<String, PriceChanged> record) {
		}

		@KafkaListener(topics = "d")
		@Idempotent(operation = "d")
		public void byMessage(Message<PriceChanged> message) {
		}

		@KafkaListener(topics = "e")
		@Idempotent(operation = "e", required = false)
		public void keyOptional(PriceChanged event) {
		}

		@Idempotent(operation = "f", key = "#event.productCode()")
		public void notAListener(PriceChanged event) {
		}

	}

}

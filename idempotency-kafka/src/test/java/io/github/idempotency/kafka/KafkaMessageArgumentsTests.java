package io.github.idempotency.kafka;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.Acknowledgment;
import org.springframework.messaging.Message;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.ReflectionUtils;

import io.github.idempotency.engine.IdempotentAttributes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where {@link KafkaMessageArguments} finds the key of a listener's record, and what it counts of
 * the record for the fingerprint.
 */
class KafkaMessageArgumentsTests {

	private final KafkaMessageArguments arguments = new KafkaMessageArguments();

	@Test
	void theKeyIsTheIdempotencyKeyHeaderOfAConsumerRecord() {
		ConsumerRecord<String, String> record = new ConsumerRecord<>("orders", 0, 42, "record-key", "{}");
		record.headers().add("Idempotency-Key", "order-7".getBytes(StandardCharsets.UTF_8));
		assertThat(this.arguments.key(attributes("onRecord"), new Object[] { record, null })).isEqualTo("order-7");
	}

	@Test
	void aRecordWithoutTheHeaderHasNoKeyNotItsRecordKeyNorItsOffset() {
		ConsumerRecord<String, String> record = new ConsumerRecord<>("orders", 0, 42, "record-key", "{}");
		assertThat(this.arguments.key(attributes("onRecord"), new Object[] { record, null })).isNull();
	}

	@Test
	void theKeyIsTheHeaderOfASpringMessageAsBytesOrAsText() {
		Message<String> bytes = MessageBuilder.withPayload("{}")
			.setHeader("Idempotency-Key", "order-8".getBytes(StandardCharsets.UTF_8))
			.build();
		Message<String> text = MessageBuilder.withPayload("{}").setHeader("Idempotency-Key", "order-9").build();
		assertThat(this.arguments.key(attributes("onMessage"), new Object[] { bytes })).isEqualTo("order-8");
		assertThat(this.arguments.key(attributes("onMessage"), new Object[] { text })).isEqualTo("order-9");
	}

	@Test
	void theKeyIsAParameterAnnotatedAsTheIdempotencyKeyHeader() {
		byte[] key = "order-10".getBytes(StandardCharsets.UTF_8);
		assertThat(this.arguments.key(attributes("onPayload"), new Object[] { "{}", key })).isEqualTo("order-10");
	}

	@Test
	void aRecordCountsByItsValueAloneSoThatAnotherOffsetOfTheSameEventIsTheSameCall() {
		ConsumerRecord<String, String> first = new ConsumerRecord<>("orders", 0, 42, "a", "{\"id\":1}");
		ConsumerRecord<String, String> again = new ConsumerRecord<>("orders", 1, 97, "b", "{\"id\":1}");
		assertThat(this.arguments.payload(first.getClass()).apply(first)).isEqualTo("{\"id\":1}");
		assertThat(this.arguments.payload(again.getClass()).apply(again)).isEqualTo("{\"id\":1}");
		assertThat(this.arguments.payload(String.class)).isNull();
	}

	private static IdempotentAttributes attributes(String name) {
		Method method = ReflectionUtils.findMethod(Listener.class, name, (Class<?>[]) null);
		return new IdempotentAttributes(method, "", null, true, null);
	}

	static class Listener {

		void onRecord(ConsumerRecord<String, String> record, Acknowledgment acknowledgment) {
		}

		void onMessage(Message<String> message) {
		}

		void onPayload(String payload, @Header("Idempotency-Key") byte[] key) {
		}

	}

}

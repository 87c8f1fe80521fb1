package io.github.idempotency.sample.ledger;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Outside the {@code rabbit} profile the application has no RabbitMQ beans at all, and outside
 * the {@code kafka} profile no Kafka listener, so it starts, stays healthy and takes payments with
 * no broker to reach.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.rabbitmq.host=127.0.0.1", "spring.rabbitmq.port=1" })
class DefaultProfileWithoutBrokerTests {

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@Test
	void runsWithoutAnyRabbitMqBeanAndStaysHealthy() {
		assertThat(this.context.getBeanNamesForType(ConnectionFactory.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(RabbitTemplate.class)).isEmpty();
		assertThat(this.context.containsBean("org.springframework.amqp.rabbit.config.internalRabbitListenerEndpointRegistry"))
			.isFalse();
		assertThat(this.context.getBeansOfType(KafkaListenerEndpointRegistry.class).values())
			.allSatisfy((registry) -> assertThat(registry.getListenerContainers()).isEmpty());
		Http http = new Http(this.port);
		HttpResponse<byte[]> payment = http.post("/payments").key(newKey()).json(body(customer("c-"), 2999, "USD")).send();
		assertThat(payment.statusCode()).isEqualTo(201);
		assertThat(json(http.get("/actuator/health").send()).get("status").asString()).isEqualTo("UP");
		HttpResponse<byte[]> ledger = http.get("/ledger").send();
		assertThat(ledger.statusCode()).isEqualTo(200);
		assertThat(json(ledger).isEmpty()).isTrue();
	}

}

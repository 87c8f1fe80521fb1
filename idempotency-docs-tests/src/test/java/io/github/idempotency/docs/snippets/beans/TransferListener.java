package io.github.idempotency.docs.snippets.beans;

import com.rabbitmq.client.Channel;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.messaging.handler.annotation.Header;

import io.github.idempotency.annotation.Idempotent;

/**
 * A RabbitMQ listener whose fingerprint is the transfer alone, not its delivery's metadata. Not a
 * bean here: it compiles, with no broker to listen to.
 */
class TransferListener {

	private long booked;

	// tag::transfer-listener[]
	@RabbitListener(queues = "transfers")
	@Idempotent(key = "'transfer:' + #transfer.id()", fingerprint = "#transfer")
	public void onTransfer(Transfer transfer, Channel channel, @Header(AmqpHeaders.DELIVERY_TAG) long tag) {
		this.booked += transfer.amount();
	}
	// end::transfer-listener[]

}

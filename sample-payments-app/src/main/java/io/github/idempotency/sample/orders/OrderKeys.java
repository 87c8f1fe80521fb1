package io.github.idempotency.sample.orders;

import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

/**
 * Derives the idempotency key of an order, {@code order:{cartMandateId}}, so that a mandate is
 * ordered once however often the request is sent.
 */
@Component("orderKeys")
public class OrderKeys {

	/**
	 * Return the key of a request; called from the key expression of {@code POST /orders}, so
	 * before anything is claimed.
	 * @param request the request
	 * @return {@code order:{cartMandateId}}
	 * @throws InvalidOrderException if the request names no mandate, so that no key can be made
	 */
	public String keyFor(CreateOrderRequest request) {
		if (!StringUtils.hasText(request.cartMandateId())) {
			throw new InvalidOrderException("cartMandateId is required.");
		}
		return "order:" + request.cartMandateId();
	}

}

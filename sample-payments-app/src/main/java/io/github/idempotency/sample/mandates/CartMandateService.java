package io.github.idempotency.sample.mandates;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Creates cart mandates and looks them up.
 */
@Service
public class CartMandateService {

	private final CartMandateRepository mandates;

	private final CartHasher hasher;

	CartMandateService(CartMandateRepository mandates, CartHasher hasher) {
		this.mandates = mandates;
		this.hasher = hasher;
	}

	/**
	 * Create a mandate for a cart, valid for {@link CartMandate#VALIDITY}.
	 * @param request the request as received
	 * @return the new mandate
	 * @throws InvalidCartException if the cart is invalid
	 */
	@Transactional
	public CartMandate create(CreateCartMandateRequest request) {
		ValidCart cart = ValidCart.from(request);
		Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
		CartMandate mandate = new CartMandate("cm_" + UUID.randomUUID().toString().replace("-", ""),
				cart.customerId(), cart.currency(), cart.items(), cart.total(),
				this.hasher.hash(cart.currency(), cart.items()), now, now.plus(CartMandate.VALIDITY));
		this.mandates.insert(mandate);
		return mandate;
	}

	/**
	 * Return a mandate.
	 * @param id the mandate id
	 * @return the mandate, expired or not
	 * @throws CartMandateNotFoundException if there is no such mandate
	 */
	@Transactional(readOnly = true)
	public CartMandate find(String id) {
		return this.mandates.findById(id).orElseThrow(() -> new CartMandateNotFoundException(id));
	}

}

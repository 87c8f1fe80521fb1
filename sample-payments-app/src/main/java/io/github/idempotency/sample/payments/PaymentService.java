package io.github.idempotency.sample.payments;

import java.util.List;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;

import io.github.idempotency.sample.gateway.ChargeRequest;
import io.github.idempotency.sample.gateway.GatewayCharge;
import io.github.idempotency.sample.gateway.PaymentGateway;

/**
 * Creates payments so that running the same request again, after a crash or a lease takeover,
 * finds the first payment and the first charge instead of making new ones.
 */
@Service
public class PaymentService {

	private final PaymentRepository payments;

	private final PaymentGateway gateway;

	private final CrashWindows crashWindows;

	private final ApplicationEventPublisher events;

	PaymentService(PaymentRepository payments, PaymentGateway gateway, CrashWindows crashWindows,
			ApplicationEventPublisher events) {
		this.payments = payments;
		this.gateway = gateway;
		this.crashWindows = crashWindows;
		this.events = events;
	}

	/**
	 * Create a payment and charge the customer, or finish the payment an earlier attempt with the
	 * same key started, and publish {@link PaymentSucceeded} if the customer was charged.
	 * @param key the payment's idempotency key
	 * @param request the request as received
	 * @return the payment, charged
	 * @throws InvalidPaymentException if the request is invalid
	 * @throws PaymentDeclinedException if the gateway declined the charge
	 */
	public PaymentResponse create(PaymentKey key, CreatePaymentRequest request) {
		NewPayment newPayment = NewPayment.from(request);
		Payment payment = findOrCreate(key, newPayment);
		if (payment.getStatus() == PaymentStatus.PENDING) {
			this.crashWindows.reached(CrashWindows.Window.BEFORE_CHARGE, payment);
			GatewayCharge charge = this.gateway.charge(new ChargeRequest(key.gatewayKey(), payment.getCustomerId(),
					payment.getAmount(), payment.getCurrency()));
			this.crashWindows.reached(CrashWindows.Window.AFTER_CHARGE, payment);
			payment.settle(charge);
			payment = this.payments.save(payment);
			this.crashWindows.reached(CrashWindows.Window.AFTER_SETTLE, payment);
		}
		return answer(payment);
	}

	/**
	 * Charge the customer first, then record the payment, settled, then capture the charge: the
	 * order for a slow external gateway that deduplicates charges by key, where nothing of the
	 * payment is written before the gateway answers. A run that stops between two steps finds, on
	 * its next run, the charge of the first at the gateway, records the payment with it if that is
	 * not done, and captures it.
	 * @param key the payment's idempotency key
	 * @param request the request as received
	 * @return the payment, charged
	 * @throws InvalidPaymentException if the request is invalid
	 * @throws PaymentDeclinedException if the gateway declined the charge
	 */
	public PaymentResponse createChargingFirst(PaymentKey key, CreatePaymentRequest request) {
		NewPayment newPayment = NewPayment.from(request);
		ChargeRequest chargeRequest = new ChargeRequest(key.gatewayKey(), newPayment.customerId(), newPayment.amount(),
				newPayment.currency());
		GatewayCharge charge = this.gateway.charge(chargeRequest);
		Payment payment = findOrCreate(key, newPayment);
		if (payment.getStatus() == PaymentStatus.PENDING) {
			payment.settle(charge);
			payment = this.payments.save(payment);
		}
		if (!charge.isDeclined()) {
			this.gateway.capture(chargeRequest, charge);
		}
		return answer(payment);
	}

	private PaymentResponse answer(Payment payment) {
		PaymentResponse response = PaymentResponse.of(payment);
		if (payment.getStatus() == PaymentStatus.DECLINED) {
			throw new PaymentDeclinedException(response);
		}
		this.events.publishEvent(PaymentSucceeded.of(payment));
		return response;
	}

	/**
	 * Return a payment of a tenant.
	 * @param tenant the tenant
	 * @param id the payment id
	 * @return the payment
	 * @throws PaymentNotFoundException if the tenant has no such payment
	 */
	public PaymentResponse find(String tenant, long id) {
		return this.payments.findByIdAndTenantId(id, tenant)
			.map(PaymentResponse::of)
			.orElseThrow(() -> new PaymentNotFoundException(id));
	}

	/**
	 * Return the payments of a tenant's customer, oldest first.
	 * @param tenant the tenant
	 * @param customerId the customer
	 * @return the payments
	 */
	public List<PaymentResponse> findByCustomer(String tenant, String customerId) {
		return this.payments.findByTenantIdAndCustomerIdOrderById(tenant, customerId)
			.stream()
			.map(PaymentResponse::of)
			.toList();
	}

	private Payment findOrCreate(PaymentKey key, NewPayment newPayment) {
		Payment existing = this.payments.findByTenantIdAndIdempotencyKey(key.tenant(), key.key()).orElse(null);
		if (existing != null) {
			return existing;
		}
		try {
			return this.payments.saveAndFlush(new Payment(key.tenant(), key.key(), newPayment.customerId(),
					newPayment.amount(), newPayment.currency()));
		}
		catch (DataIntegrityViolationException ex) {
			return this.payments.findByTenantIdAndIdempotencyKey(key.tenant(), key.key()).orElseThrow(() -> ex);
		}
	}

}

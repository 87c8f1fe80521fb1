package io.github.idempotency.web.servlet;

import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.List;

import jakarta.servlet.ServletException;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.HandlerMethodReturnValueHandlerComposite;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * Renders the late result of an asynchronous handler whose request has ended, or of an accepted
 * request's handler that the starter ran on its own threads, through the same
 * return value handlers and exception resolvers as Spring MVC's own dispatch, into a response of
 * its own, so that it can be stored for the retries of its key.
 */
class LateResultRenderer {

	private final ObjectProvider<RequestMappingHandlerAdapter> adapters;

	private final ObjectProvider<HandlerExceptionResolver> exceptionResolvers;

	private volatile @Nullable HandlerMethodReturnValueHandlerComposite returnValueHandlers;

	public LateResultRenderer(ObjectProvider<RequestMappingHandlerAdapter> adapters,
			ObjectProvider<HandlerExceptionResolver> exceptionResolvers) {
		this.adapters = adapters;
		this.exceptionResolvers = exceptionResolvers;
	}

	/**
	 * Render a handler's late result.
	 * @param request what the request was
	 * @param handler the handler method and its bean
	 * @param value what the work produced, if it did not fail
	 * @param failure what the work failed with, or {@code null}
	 * @return the rendered response, or {@code null} for a failure no resolver handled
	 * @throws Exception if the result cannot be rendered without its request, such as a view
	 */
	@Nullable CapturingResponse render(DetachedRequest request, HandlerMethod handler, @Nullable Object value,
			@Nullable Throwable failure) throws Exception {
		CapturingResponse response = new CapturingResponse(new DetachedResponse());
		response.startCapture();
		RequestAttributes previous = RequestContextHolder.getRequestAttributes();
		ServletRequestAttributes attributes = new ServletRequestAttributes(request, response);
		RequestContextHolder.setRequestAttributes(attributes);
		LocaleContextHolder.setLocale(request.getLocale());
		try {
			return (failure != null) ? resolve(request, response, handler, failure)
					: write(request, response, handler, value);
		}
		finally {
			attributes.requestCompleted();
			LocaleContextHolder.resetLocaleContext();
			RequestContextHolder.setRequestAttributes(previous);
		}
	}

	private CapturingResponse write(DetachedRequest request, CapturingResponse response, HandlerMethod handler,
			@Nullable Object value) throws Exception {
		ModelAndViewContainer container = new ModelAndViewContainer();
		returnValueHandlers().handleReturnValue(value, new LateReturnType(handler.getReturnType(), value), container,
				new ServletWebRequest(request, response));
		if (!container.isRequestHandled()) {
			throw new IllegalStateException("A late result rendered by a view cannot be stored");
		}
		return response;
	}

	private @Nullable CapturingResponse resolve(DetachedRequest request, CapturingResponse response,
			HandlerMethod handler, Throwable failure) throws Exception {
		Exception exception = (failure instanceof Exception ex) ? ex
				: new ServletException("Async processing failed: " + failure, failure);
		for (HandlerExceptionResolver resolver : this.exceptionResolvers.orderedStream().toList()) {
			ModelAndView resolved = resolver.resolveException(request, response, handler, exception);
			if (resolved != null) {
				if (!resolved.isEmpty()) {
					throw new IllegalStateException("A late failure rendered by a view cannot be stored");
				}
				return response;
			}
		}
		return null;
	}

	private HandlerMethodReturnValueHandlerComposite returnValueHandlers() {
		HandlerMethodReturnValueHandlerComposite handlers = this.returnValueHandlers;
		if (handlers == null) {
			List<HandlerMethodReturnValueHandler> all = this.adapters.getObject().getReturnValueHandlers();
			handlers = new HandlerMethodReturnValueHandlerComposite().addHandlers(all);
			this.returnValueHandlers = handlers;
		}
		return handlers;
	}

	/**
	 * The return type of the value inside an asynchronous return type ({@code Foo} of
	 * {@code CompletableFuture<Foo>}), with the handler method's annotations and class, as
	 * Spring MVC's own dispatch of an asynchronous result sees it.
	 */
	private static final class LateReturnType extends MethodParameter {

		private final MethodParameter declared;

		private final @Nullable Object value;

		private final ResolvableType type;

		LateReturnType(MethodParameter declared, @Nullable Object value) {
			super(declared);
			this.declared = declared;
			this.value = value;
			ResolvableType type = ResolvableType.forType(declared.getGenericParameterType());
			// The value of an asynchronous handler is inside its return type; that of an accepted
			// request's handler, which the starter ran, is its return type.
			this.type = AsyncReturnTypes.isAsync(declared.getMethod()) ? type.getGeneric() : type;
		}

		private LateReturnType(LateReturnType original) {
			super(original);
			this.declared = original.declared;
			this.value = original.value;
			this.type = original.type;
		}

		@Override
		public Class<?> getParameterType() {
			if (this.value != null) {
				return this.value.getClass();
			}
			return ResolvableType.NONE.equals(this.type) ? super.getParameterType() : this.type.toClass();
		}

		@Override
		public Type getGenericParameterType() {
			return this.type.getType();
		}

		@Override
		public Class<?> getContainingClass() {
			return this.declared.getContainingClass();
		}

		@Override
		public Annotation[] getMethodAnnotations() {
			return this.declared.getMethodAnnotations();
		}

		@Override
		public <A extends Annotation> @Nullable A getMethodAnnotation(Class<A> annotationType) {
			return this.declared.getMethodAnnotation(annotationType);
		}

		@Override
		public <A extends Annotation> boolean hasMethodAnnotation(Class<A> annotationType) {
			return this.declared.hasMethodAnnotation(annotationType);
		}

		@Override
		public LateReturnType clone() {
			return new LateReturnType(this);
		}

	}

}

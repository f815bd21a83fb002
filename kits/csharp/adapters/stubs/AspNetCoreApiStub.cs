// STUB — NOT ASP.NET CORE. The few members of ASP.NET Core's published API (Microsoft.AspNetCore.Http,
// Microsoft.Extensions.Primitives) that CallbackVerificationMiddleware uses, with the same names and shapes, so the
// repository's tests can compile and drive the middleware with Mono where the .NET SDK and NuGet are unreachable.
// Never ship it and never reference it from an app: a real app compiles the middleware against ASP.NET Core itself.
using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Threading.Tasks;

namespace Microsoft.Extensions.Primitives
{
    public struct StringValues : IEnumerable<string>
    {
        readonly string[] values;
        public StringValues(string value) { values = value == null ? new string[0] : new[] { value }; }
        public StringValues(string[] values) { this.values = values ?? new string[0]; }
        public int Count { get { return values == null ? 0 : values.Length; } }
        public IEnumerator<string> GetEnumerator() { return ((IEnumerable<string>)(values ?? new string[0])).GetEnumerator(); }
        IEnumerator IEnumerable.GetEnumerator() { return GetEnumerator(); }
        public static implicit operator StringValues(string value) { return new StringValues(value); }
        public static implicit operator StringValues(string[] values) { return new StringValues(values); }
    }
}

namespace Microsoft.AspNetCore.Http
{
    using Microsoft.Extensions.Primitives;

    public delegate Task RequestDelegate(HttpContext context);

    public interface IHeaderDictionary : IDictionary<string, StringValues> { }

    public struct PathString
    {
        public string Value { get; private set; }
        public PathString(string value) { Value = value; }
        public PathString Add(PathString other) { return new PathString((Value ?? "") + (other.Value ?? "")); }
        // The real ToUriComponent escapes what a path must not hold; the stub's callers give escaped paths.
        public string ToUriComponent() { return Value ?? ""; }
        public static implicit operator PathString(string s) { return new PathString(s); }
    }

    public abstract class HttpRequest
    {
        public abstract string Method { get; set; }
        public abstract PathString PathBase { get; set; }
        public abstract PathString Path { get; set; }
        public abstract IHeaderDictionary Headers { get; }
        public abstract Stream Body { get; set; }
    }

    public abstract class HttpResponse
    {
        public abstract int StatusCode { get; set; }
        public abstract string ContentType { get; set; }
        public abstract Stream Body { get; set; }
    }

    public abstract class HttpContext
    {
        public abstract HttpRequest Request { get; }
        public abstract HttpResponse Response { get; }
        public abstract IDictionary<object, object> Items { get; set; }
    }
}

// ASP.NET Core glue (5.3): verify the platform's calls before the endpoint runs. Ships as source beside the kit:
// GamePlatform.Kit itself has no package dependencies; an ASP.NET Core app (which has Microsoft.AspNetCore.Http)
// adds this file. Written against ASP.NET Core's published API (HttpContext, HttpRequest, IHeaderDictionary,
// RequestDelegate); the repository's tests compile it against a labelled stub of that surface (adapters/stubs) and
// drive it with vector calls, since the .NET SDK and NuGet are not reachable there.
//
//   app.UseWhen(c => c.Request.Path.StartsWithSegments("/pay"), b => b.UseMiddleware<CallbackVerificationMiddleware>(verifier));
//   var call = CallbackVerificationMiddleware.VerifiedCall(httpContext);   // in the endpoint
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Primitives;

namespace GamePlatform.Kit.AspNetCore
{
    public sealed class CallbackVerificationMiddleware
    {
        /// <summary>The HttpContext.Items key of the verified call.</summary>
        public const string VerifiedCallKey = "GamePlatform.Kit.VerifiedCall";

        readonly RequestDelegate next;
        readonly CallbackVerifier verifier;
        readonly int maxBody;

        public CallbackVerificationMiddleware(RequestDelegate next, CallbackVerifier verifier) : this(next, verifier, 1 << 20) { }

        public CallbackVerificationMiddleware(RequestDelegate next, CallbackVerifier verifier, int maxBody)
        {
            this.next = next;
            this.verifier = verifier;
            this.maxBody = maxBody;
        }

        /// <summary>The call this middleware verified for the request, or null.</summary>
        public static VerifiedCall VerifiedCall(HttpContext context)
        {
            object v;
            return context.Items.TryGetValue(VerifiedCallKey, out v) ? v as VerifiedCall : null;
        }

        /// <summary>ASP.NET Core's request headers (IHeaderDictionary), one pair per value.</summary>
        public static IEnumerable<KeyValuePair<string, string>> Pairs(IEnumerable<KeyValuePair<string, StringValues>> headers)
        {
            foreach (var h in headers)
                foreach (var v in h.Value) yield return new KeyValuePair<string, string>(h.Key, v);
        }

        public async Task InvokeAsync(HttpContext context)
        {
            var request = context.Request;
            var buffer = new MemoryStream();
            var chunk = new byte[8192];
            int n;
            while ((n = await request.Body.ReadAsync(chunk, 0, chunk.Length)) > 0)
            {
                if (buffer.Length + n > maxBody) { await Refuse(context, 413, "body too large"); return; }
                buffer.Write(chunk, 0, n);
            }
            byte[] body = buffer.ToArray();
            VerifiedCall call;
            try
            {
                // PathBase + Path in their escaped form: the path as sent (a query string is not part of it).
                call = verifier.Verify(request.Method, request.PathBase.Add(request.Path).ToUriComponent(), Pairs(request.Headers), body);
            }
            catch (CallbackVerificationException e)
            {
                await Refuse(context, 401, "signature check failed: " + e.Code);
                return;
            }
            context.Items[VerifiedCallKey] = call;
            request.Body = new MemoryStream(body, false); // the endpoint reads the verified bytes
            await next(context);
        }

        static async Task Refuse(HttpContext context, int status, string msg)
        {
            var a = Answer.RejectNotification(status, msg);
            byte[] data = Encoding.UTF8.GetBytes(a.Json());
            context.Response.StatusCode = a.Status;
            context.Response.ContentType = "application/json";
            await context.Response.Body.WriteAsync(data, 0, data.Length);
        }
    }
}

// Drives CallbackVerificationMiddleware (compiled against the labelled ASP.NET Core API stub, adapters/stubs) with
// vector calls: a signed call reaches the next delegate with the same body and the verified call; a tampered body,
// a forged signature and a replay are refused with 401 before it.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using GamePlatform.Kit;
using GamePlatform.Kit.AspNetCore;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Primitives;

sealed class Headers : Dictionary<string, StringValues>, IHeaderDictionary
{
    public Headers() : base(StringComparer.OrdinalIgnoreCase) { }
}

sealed class Req : HttpRequest
{
    readonly Headers headers = new Headers();
    public override string Method { get; set; }
    public override PathString PathBase { get; set; }
    public override PathString Path { get; set; }
    public override IHeaderDictionary Headers { get { return headers; } }
    public override Stream Body { get; set; }
}

sealed class Res : HttpResponse
{
    public override int StatusCode { get; set; }
    public override string ContentType { get; set; }
    public override Stream Body { get; set; }
}

sealed class Ctx : HttpContext
{
    readonly Req req = new Req();
    readonly Res res = new Res { StatusCode = 200, Body = new MemoryStream() };
    public override HttpRequest Request { get { return req; } }
    public override HttpResponse Response { get { return res; } }
    public override IDictionary<object, object> Items { get; set; }
    public Ctx() { Items = new Dictionary<object, object>(); }
}

static class AspNetCoreMiddlewareTest
{
    static int failed;
    static void Check(string name, bool ok) { Console.WriteLine((ok ? "PASS " : "FAIL ") + name); if (!ok) failed++; }

    static int Main(string[] args)
    {
        string file = args.Length > 0 ? args[0] : (Environment.GetEnvironmentVariable("KIT_VECTORS") ?? "../vectors.json");
        var v = (JsonObject)Json.Parse(File.ReadAllText(file, Encoding.UTF8));
        var c = (JsonObject)((System.Collections.IList)v.Get("callback"))[0];
        var keys = (JsonObject)v.Get("keys");
        var pems = new Dictionary<string, string>();
        foreach (var kid in (System.Collections.IList)c.Get("publicKeys")) pems[(string)kid] = ((JsonObject)keys.Get((string)kid)).Get("publicKeyPem").ToString();
        long now = long.Parse(c.Get("now").ToString());
        var verifier = new CallbackVerifier(pems, 300, null, () => now);
        string body = (string)c.Get("body");
        var seen = new List<string>();
        var middleware = new CallbackVerificationMiddleware(async ctx =>
        {
            var read = new StreamReader(ctx.Request.Body, Encoding.UTF8).ReadToEnd();
            seen.Add(read + "|" + CallbackVerificationMiddleware.VerifiedCall(ctx).KeyId);
            await Task.FromResult(0);
        }, verifier);

        Func<string, string, int> send = (sentBody, signature) =>
        {
            var ctx = new Ctx();
            var req = (Req)ctx.Request;
            req.Method = (string)c.Get("method");
            req.PathBase = "";
            req.Path = (string)c.Get("path");
            foreach (System.Collections.IList pair in (System.Collections.IList)c.Get("headers"))
                req.Headers[(string)pair[0]] = (string)pair[1];
            if (signature != null) req.Headers["Signature"] = signature;
            req.Body = new MemoryStream(Encoding.UTF8.GetBytes(sentBody));
            middleware.InvokeAsync(ctx).Wait();
            return ctx.Response.StatusCode;
        };
        Check("tampered body refused", send(body + " ", null) == 401);
        Check("forged signature refused", send(body, "AAAA") == 401);
        Check("signed call reaches the endpoint", send(body, null) == 200);
        Check("replay refused", send(body, null) == 401);
        Check("the endpoint ran once with the verified body and key", seen.Count == 1 && seen[0] == body + "|" + c.Get("expectKeyId"));
        var pairs = CallbackVerificationMiddleware.Pairs(new Headers { { "Nonce", new StringValues(new[] { "a", "b" }) } }).ToList();
        Check("IHeaderDictionary pairs keep every value", pairs.Count == 2);
        Console.WriteLine(failed == 0 ? "all passed" : failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}

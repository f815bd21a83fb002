using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using GamePlatform.Kit;

/// <summary>A minimal game server: verifies the platform's payment notification (5.3) on the raw body, parses it
/// (2.4/2.5), grants once per trxNo and answers 200 (4.7).
///   PLATFORM_KEYS_DIR=keys/ PORT=8080 mono GameServer.exe
/// PLATFORM_KEYS_DIR holds one &lt;key id&gt;.pem per platform public key (GET /admin/v1/platform-keys).</summary>
static class GameServer
{
    const int MaxBody = 1 << 20;

    static void Main()
    {
        var verifier = new CallbackVerifier(CallbackVerifier.LoadPublicKeysDir(Environment.GetEnvironmentVariable("PLATFORM_KEYS_DIR")));
        var granted = new HashSet<long>(); // a real game keeps this in its database
        int port = int.Parse(Environment.GetEnvironmentVariable("PORT") ?? "8080");
        if (port == 0)
        {   // HttpListener takes no port 0: ask the system for a free one
            var probe = new TcpListener(IPAddress.Loopback, 0);
            probe.Start();
            port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
        }
        var listener = new HttpListener();
        listener.Prefixes.Add("http://127.0.0.1:" + port + "/");
        listener.Start();
        Console.WriteLine("listening on http://127.0.0.1:" + port);
        for (;;)
        {
            var ctx = listener.GetContext();
            Answer answer;
            try
            {
                if (ctx.Request.ContentLength64 > MaxBody) throw new BodyException("body", "too large");
                var buffer = new MemoryStream();
                ctx.Request.InputStream.CopyTo(buffer);
                byte[] body = buffer.ToArray(); // the raw bytes: verify these, never a re-serialised body
                string path = ctx.Request.RawUrl; // as sent, not re-encoded
                verifier.Verify(ctx.Request.HttpMethod, path, CallbackVerifier.Pairs(ctx.Request.Headers), body);
                var n = Notification.Parse(body);
                if (granted.Add(n.TrxNo))
                {
                    if (n.IsPayment) Console.WriteLine("grant " + string.Join(", ", n.Products) + " to " + n.UserId);
                    else if (n.IsRefund) Console.WriteLine("refund of " + n.OriginalTrxNo + ": take back the goods of " + n.UserId);
                }
                answer = Answer.AcceptNotification();
            }
            catch (CallbackVerificationException e) { answer = Answer.RejectNotification(401, "signature check failed: " + e.Code); }
            catch (BodyException e) { answer = Answer.RejectNotification(400, "bad body: " + e.Message); }
            byte[] data = Encoding.UTF8.GetBytes(answer.Json());
            ctx.Response.StatusCode = answer.Status;
            ctx.Response.ContentType = "application/json";
            ctx.Response.ContentLength64 = data.Length;
            ctx.Response.OutputStream.Write(data, 0, data.Length);
            ctx.Response.Close();
        }
    }
}

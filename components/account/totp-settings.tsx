"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { confirmTotpCode, renewCodes, startTotp, type TotpSetupStarted } from "@/app/(staff)/account/totp-actions";
import { CopyButton } from "@/components/shared/copy-button";
import { LocalTime } from "@/components/shared/local-time";
import { ScriptButton } from "@/components/shared/script-button";
import { RecoveryCodesOnce } from "@/components/account/recovery-codes-once";
import { TotpCodeForm } from "@/components/account/totp-code-form";
import { TotpDisableForm } from "@/components/account/totp-disable-form";

/** What the page knows of the person's app; confirmedAt as ISO text, from the server. */
export type TotpSettingsStatus = { on: boolean; confirmedAt: string | null; recoveryCodesLeft: number };

/**
 * The authenticator app on the Account page: set up (scan or type the key,
 * confirm with a first code), the recovery codes shown once, and once on,
 * new recovery codes or turning it off. One component for every state, so
 * that the codes stay on screen while the page renders again for the new
 * session (a server action that sets a cookie re-renders the page).
 */
export function TotpSettings({ status, email }: { status: TotpSettingsStatus; email: string }) {
  const router = useRouter();
  const [setup, setSetup] = useState<TotpSetupStarted>();
  const [starting, setStarting] = useState(false);
  const [codes, setCodes] = useState<string[]>();
  const [message, setMessage] = useState<string>();

  async function start() {
    setStarting(true);
    setMessage(undefined);
    try {
      setSetup(await startTotp());
    } finally {
      setStarting(false);
    }
  }

  function showCodes(recoveryCodes: string[]) {
    setSetup(undefined);
    setCodes(recoveryCodes);
    setMessage("The authenticator app is on. You are signed out everywhere else; you stay signed in here.");
  }

  if (codes) {
    return (
      <>
        <p role="status" className="confirmation">
          {message}
        </p>
        <RecoveryCodesOnce
          codes={codes}
          onDone={() => {
            setCodes(undefined);
            setMessage(undefined);
            router.refresh();
          }}
        />
      </>
    );
  }

  if (status.on) {
    return (
      <>
        <p>
          An authenticator app is on since <LocalTime date={status.confirmedAt} />: signing in asks for a code from it, or a recovery code.{" "}
          {status.recoveryCodesLeft} of 10 recovery codes left.
        </p>
        <h3>New recovery codes</h3>
        <TotpCodeForm
          id="totp-renew-code"
          label="Code from your app, or a recovery code"
          hint="Every earlier recovery code stops working."
          submitLabel="Make new recovery codes"
          pendingLabel="Making…"
          recoveryAllowed
          action={renewCodes}
          onCodes={(recoveryCodes) => {
            setCodes(recoveryCodes);
            setMessage("New recovery codes are made. You are signed out everywhere else; you stay signed in here.");
          }}
        />
        <h3>Turn off</h3>
        <TotpDisableForm
          email={email}
          onDisabled={() => {
            setMessage("The authenticator app is off: signing in asks for your password alone.");
            router.refresh();
          }}
        />
      </>
    );
  }

  return (
    <>
      <p role="status" className="confirmation">
        {message}
      </p>
      <p>Sign in with a code from an app on your phone as well as your password, so that a stolen password alone does not open your account.</p>
      {!setup ? (
        <ScriptButton onClick={start} disabled={starting} aria-disabled={starting}>
          {starting ? "Starting…" : "Set up an authenticator app"}
        </ScriptButton>
      ) : (
        <ol className="stack totp-setup">
          <li>
            <p>In your authenticator app, add an account and scan this QR code:</p>
            {/* A data URL made on the server from the otpauth:// URI; its text alternative is the key below. */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img className="totp-qr" src={setup.qrCode} width={200} height={200} alt="QR code to add Plant Store to your authenticator app; the setup key below is the same, as text." />
            <label htmlFor="totp-secret">Or type this setup key</label>
            <div className="token-row">
              <input id="totp-secret" type="text" readOnly value={setup.secret} spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
              <CopyButton text={setup.secret} what="key" />
            </div>
          </li>
          <li>
            <TotpCodeForm
              id="totp-confirm-code"
              label="Code from the app"
              hint="The six digits the app shows for Plant Store."
              submitLabel="Turn on"
              pendingLabel="Turning on…"
              recoveryAllowed={false}
              action={confirmTotpCode}
              onCodes={showCodes}
            />
          </li>
        </ol>
      )}
    </>
  );
}

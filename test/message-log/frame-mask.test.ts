// Secrets in OCPP frames are masked before the message log keeps or streams them; every other
// frame is kept byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MASK, mayHoldSecret, maskSecrets, unreadableFrame } from '../../engine/message-log/frame-mask.ts';

const SECRET = 's3cr3t-value';
const masked = (action: string, frame: unknown[]) => {
  const text = JSON.stringify(frame);
  assert.ok(mayHoldSecret(action, text), `${action} frames are looked at`);
  const out = maskSecrets(text);
  assert.ok(!out.includes(SECRET), out);
  return JSON.parse(out);
};

test('1.6 ChangeConfiguration AuthorizationKey: the value is masked, the key kept', () => {
  const out = masked('ChangeConfiguration', [
    2,
    'a',
    'ChangeConfiguration',
    { key: 'AuthorizationKey', value: SECRET },
  ]);
  assert.deepEqual(out, [2, 'a', 'ChangeConfiguration', { key: 'AuthorizationKey', value: MASK }]);
});

test('1.6 GetConfiguration result: an AuthorizationKey value among the keys is masked, the others kept', () => {
  const out = masked('GetConfiguration', [
    3,
    'b',
    {
      configurationKey: [
        { key: 'HeartbeatInterval', readonly: false, value: '300' },
        { key: 'AuthorizationKey', readonly: false, value: SECRET },
      ],
    },
  ]);
  assert.deepEqual(out[2].configurationKey, [
    { key: 'HeartbeatInterval', readonly: false, value: '300' },
    { key: 'AuthorizationKey', readonly: false, value: MASK },
  ]);
});

test('2.0.1 SetVariables SecurityCtrlr.BasicAuthPassword: the attribute value is masked', () => {
  const out = masked('SetVariables', [
    2,
    'c',
    'SetVariables',
    {
      setVariableData: [
        {
          component: { name: 'SecurityCtrlr' },
          variable: { name: 'BasicAuthPassword' },
          attributeValue: SECRET,
        },
        {
          component: { name: 'OCPPCommCtrlr' },
          variable: { name: 'HeartbeatInterval' },
          attributeValue: '60',
        },
      ],
    },
  ]);
  assert.equal(out[3].setVariableData[0].attributeValue, MASK);
  assert.equal(out[3].setVariableData[1].attributeValue, '60');
});

test('SetNetworkProfile: a basicAuthPassword anywhere in the profile is masked', () => {
  const out = masked('SetNetworkProfile', [
    2,
    'd',
    'SetNetworkProfile',
    {
      configurationSlot: 1,
      connectionData: { ocppCsmsUrl: 'wss://x', securityProfile: 2, basicAuthPassword: SECRET },
    },
  ]);
  assert.equal(out[3].connectionData.basicAuthPassword, MASK);
  assert.equal(out[3].connectionData.ocppCsmsUrl, 'wss://x');
});

test('a PEM private key is masked in any frame', () => {
  const pem = `-----BEGIN PRIVATE KEY-----\n${SECRET}\n-----END PRIVATE KEY-----`;
  const out = masked('InstallSomething', [2, 'e', 'DataTransfer', { vendorId: 'x', data: pem }]);
  assert.equal(out[3].data, MASK);
});

test('frames of other actions are not looked at; a frame without a secret comes back as the same text', () => {
  const heartbeat = '[2, "f", "Heartbeat", {}]';
  assert.equal(mayHoldSecret('Heartbeat', heartbeat), false);
  const config = '[2,"g","ChangeConfiguration",{"key":"HeartbeatInterval", "value":"60"}]';
  assert.equal(maskSecrets(config), config);
  assert.equal(maskSecrets('not json'), 'not json');
});

test('a frame that is not JSON is kept as a JSON string of its text', () => {
  assert.equal(unreadableFrame('hello [2,'), JSON.stringify('hello [2,'));
});

test('a frame that is not JSON but names a secret is withheld whole', () => {
  const cut = `[2,"a","ChangeConfiguration",{"key":"AuthorizationKey","value":"${SECRET}"`;
  assert.equal(unreadableFrame(cut), JSON.stringify(MASK));
  assert.equal(unreadableFrame(`{"password":"${SECRET}`), JSON.stringify(MASK));
});

test('a JSON frame of the wrong shape is masked field by field, kept as it was when it holds no secret', () => {
  const wrong = [2, 'a', 'ChangeConfiguration', { key: 'AuthorizationKey', value: SECRET }, 1];
  assert.deepEqual(JSON.parse(unreadableFrame(JSON.stringify(wrong))), [
    2,
    'a',
    'ChangeConfiguration',
    { key: 'AuthorizationKey', value: MASK },
    1,
  ]);
  assert.equal(unreadableFrame('[9,"x"]'), '[9,"x"]');
});

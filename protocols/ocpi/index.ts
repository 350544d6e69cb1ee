export * from './versions.ts';
export * from './envelope.ts';
export * from './display-text.ts';
export * from './token.ts';
export * from './tariff.ts';
export * from './charging-profile.ts';
export * from './client.ts';

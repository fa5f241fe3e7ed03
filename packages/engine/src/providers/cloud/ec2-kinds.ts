/** The kinds of resource the EC2 provider records; apart, so that naming them does not load the AWS SDK. */
export const EC2_KINDS = {
  instance: "ec2:instance",
  keyPair: "ec2:key_pair",
  securityGroup: "ec2:security_group",
} as const;
